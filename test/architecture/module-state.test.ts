// Run-to-run reuse lives in one place the engine owns (analyses/run-memo.ts and the memos it names), never in
// module-level caches. This reads every file of the core (everything but the browser-only state/ and views/)
// and fails on module-level mutable state: a top-level `let`/`var`, or a top-level Map/Set/WeakMap/WeakSet
// that the file writes to. Read-only lookup tables (a Set built from literals and only read) pass.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

/** Deliberate module state, each with why it is not a run-to-run memo. */
const ALLOWED: Record<string, string> = {
  'src/tokens/tokenizer.ts counters':
    'the BPE rank tables of each encoding, loaded once per process: an immutable resource, not a memo of results',
};

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `file name` for each piece of module-level mutable state in `text`. */
function moduleState(rel: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:export )?(?:let|var) (\w+)/gm)) out.push(`${rel} ${m[1]}`);
  for (const m of text.matchAll(/^(?:export )?const (\w+)(?:: [^=]+)? = new (?:Map|Set|WeakMap|WeakSet)\b/gm)) {
    const name = m[1];
    if (new RegExp(`\\b${name}\\.(?:set|add|delete|clear)\\(`).test(text)) out.push(`${rel} ${name}`);
  }
  return out;
}

describe('module state', () => {
  const core = [...files(join(REPO_ROOT, 'src')), ...files(join(REPO_ROOT, 'worker'))]
    .map((f) => relative(REPO_ROOT, f))
    .filter((rel) => !/^src\/(state|views)\//.test(rel) && rel !== 'src/main.tsx');

  it('reads the core', () => {
    expect(core.length).toBeGreaterThan(100);
  });

  it('the core keeps no module-level mutable state beyond the listed resources', () => {
    const found = core.flatMap((rel) => moduleState(rel, readFileSync(join(REPO_ROOT, rel), 'utf8')));
    expect(found.filter((k) => !(k in ALLOWED))).toEqual([]);
    // The allowlist names only what exists.
    expect(Object.keys(ALLOWED).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('the check finds a cache and lets a lookup table pass', () => {
    const cache = 'const memo = new WeakMap<object, number>();\nexport function f(o: object) { memo.set(o, 1); }';
    const table = "const KINDS = new Set(['a', 'b']);\nexport const isKind = (k: string) => KINDS.has(k);";
    expect(moduleState('x.ts', cache)).toEqual(['x.ts memo']);
    expect(moduleState('x.ts', 'let last: number | undefined;')).toEqual(['x.ts last']);
    expect(moduleState('x.ts', table)).toEqual([]);
  });
});
