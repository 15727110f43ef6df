// The blocks the content-rewriting stages make, kept so the same deterministic rewrite of the same block yields
// the same Block object on every re-run: its token and rune counts and every identity-keyed memo then survive a
// threshold change (SPEC §9: re-runs never recount unchanged text). Owned by the run's PipelineMemo.

import type { Block } from '../model/transcript.ts';

/** A rewrite's size before and after, in tokens and characters. */
export type Measured = { tokensBefore: number; tokensAfter: number; charsBefore: number; charsAfter: number };

/** Scope of rewrites that depend on nothing but the block and the key. */
const NO_SCOPE = Object.freeze({});

export class RewriteMemo {
  /** scope (a summarizer instance, or none) → block → key (the rewrite and all its parameters) → new block.
   *  Assumes a rewrite is a pure function of (scope, block, key). Bound: the blocks alive and the keys tried. */
  private readonly byScope = new WeakMap<object, WeakMap<Block, Map<string, Block>>>();

  private keys(prev: Block, scope: object): Map<string, Block> {
    let byBlock = this.byScope.get(scope);
    if (!byBlock) {
      byBlock = new WeakMap();
      this.byScope.set(scope, byBlock);
    }
    let keys = byBlock.get(prev);
    if (!keys) {
      keys = new Map();
      byBlock.set(prev, keys);
    }
    return keys;
  }

  /** The block `make` returns for (`prev`, `key`), made once. */
  block(prev: Block, key: string, make: () => Block, scope: object = NO_SCOPE): Block {
    const keys = this.keys(prev, scope);
    let b = keys.get(key);
    if (b === undefined) {
      b = make();
      keys.set(key, b);
    }
    return b;
  }

  /** The block made for (`prev`, `key`), if one was. */
  peek(prev: Block, key: string, scope: object = NO_SCOPE): Block | undefined {
    return this.byScope.get(scope)?.get(prev)?.get(key);
  }
}
