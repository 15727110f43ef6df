// The blocks the content-rewriting stages make, kept so the same deterministic rewrite of the same block yields
// the same Block object on every re-run: its token and rune counts and every identity-keyed memo then survive a
// threshold change (SPEC §9: re-runs never recount unchanged text). Owned by the run's PipelineMemo.

import { getOrInsert } from '../lib/maps.ts';
import type { Block } from '../model/transcript.ts';

const newTables = (): Map<string, WeakMap<Block, Block>> => new Map();
const newTable = (): WeakMap<Block, Block> => new WeakMap();

/** A rewrite's size before and after, in tokens and characters. */
export type Measured = { tokensBefore: number; tokensAfter: number; charsBefore: number; charsAfter: number };

/** Scope of rewrites that depend on nothing but the block and the key. */
const NO_SCOPE = Object.freeze({});

export class RewriteMemo {
  /** scope (a summarizer instance, or none) → key (the rewrite and all its parameters) → block → new block: one
   *  table per key, not a Map per block (a re-run over 20,000 requests rewrites ~34,000 results under one or two
   *  keys). Assumes a rewrite is a pure function of (scope, block, key). Bound: the blocks alive and the keys tried. */
  private readonly byScope = new WeakMap<object, Map<string, WeakMap<Block, Block>>>();

  private table(key: string, scope: object): WeakMap<Block, Block> {
    return getOrInsert(getOrInsert(this.byScope, scope, newTables), key, newTable);
  }

  /** The block `make` returns for (`prev`, `key`), made once. */
  block(prev: Block, key: string, make: () => Block, scope: object = NO_SCOPE): Block {
    return getOrInsert(this.table(key, scope), prev, make);
  }

  /** The block made for (`prev`, `key`), if one was. */
  peek(prev: Block, key: string, scope: object = NO_SCOPE): Block | undefined {
    return this.byScope.get(scope)?.get(key)?.get(prev);
  }
}
