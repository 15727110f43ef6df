// The folders are the architecture (STYLE.md). Like Perfetto's check_imports, the rules are an explicit
// allowlist: each folder names the folders it may import, and nothing else passes; there are no per-file
// exceptions. The UI (state/, views/) reaches the core only through the worker's protocol files; inside
// pipeline/ the working history never imports a stage; and no import cycle exists, type-only imports included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

/** What each folder may import besides itself. `worker/api.ts` and `worker/wire.ts` are the protocol files. */
const MAY_IMPORT: Record<string, string[]> = {
  lib: [],
  model: ['lib'],
  formats: ['lib', 'model'],
  tokens: ['lib', 'model'],
  models: ['lib', 'model'],
  pairing: ['lib', 'model'],
  pipeline: ['lib', 'model', 'tokens', 'models'],
  replay: ['lib', 'model', 'tokens', 'models', 'pairing', 'pipeline'],
  analyses: ['lib', 'model', 'tokens', 'models', 'pairing', 'pipeline', 'replay'],
  share: ['lib', 'model', 'formats', 'tokens', 'models', 'pairing', 'pipeline', 'replay', 'analyses'],
  projections: ['lib', 'model', 'tokens', 'pipeline', 'analyses'],
  sessions: ['lib', 'model', 'formats', 'tokens', 'models', 'pairing', 'pipeline', 'replay', 'analyses'],
  cli: [
    'lib',
    'model',
    'formats',
    'tokens',
    'models',
    'pairing',
    'pipeline',
    'replay',
    'analyses',
    'share',
    'sessions',
  ],
  worker: [
    'lib',
    'model',
    'formats',
    'tokens',
    'models',
    'pairing',
    'pipeline',
    'replay',
    'analyses',
    'share',
    'projections',
    'sessions',
  ],
  state: ['worker/api.ts', 'worker/wire.ts'],
  views: ['state', 'worker/api.ts', 'worker/wire.ts'],
  app: ['state', 'views'],
};

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(f)) out.push(p);
  }
  return out;
}

/** The folder a repo-relative path belongs to (`src/main.tsx` is the app entry). */
function layerOf(rel: string): string | undefined {
  if (rel.startsWith('worker/')) return 'worker';
  if (rel === 'src/main.tsx') return 'app';
  const m = /^src\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every relative import of a file (type-only and dynamic included), as repo-relative paths. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(REPO_ROOT, resolve(dirname(file), spec.replace(/\?.*$/, ''))));
}

/** The imports (from → to) that break the allowlist. */
function violations(edges: [string, string][]): string[] {
  const bad: string[] = [];
  for (const [from, to] of edges) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (!a || !b || a === b) continue;
    const allowed = MAY_IMPORT[a] ?? [];
    if (!allowed.includes(b) && !allowed.includes(to)) bad.push(`${from} → ${to}`);
  }
  return bad;
}

/** Every cycle's files (Tarjan's strongly connected components of more than one file, or a self-import). */
function cycles(edges: [string, string][]): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('layering', () => {
  const all = [...files(join(REPO_ROOT, 'src')), ...files(join(REPO_ROOT, 'worker'))].filter(
    (f) => !f.endsWith('.d.ts'),
  );
  const edges: [string, string][] = all.flatMap((f) =>
    importsOf(f).map((to) => [relative(REPO_ROOT, f), to] as [string, string]),
  );

  it('finds the source files and every folder is in the allowlist', () => {
    expect(all.length).toBeGreaterThan(100);
    const unknown = [...new Set(all.map((f) => layerOf(relative(REPO_ROOT, f))))].filter(
      (l) => l === undefined || MAY_IMPORT[l] === undefined,
    );
    expect(unknown).toEqual([]);
  });

  it('every import is one its folder may make', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('the check fails on the UI importing the engine implementation, or the model importing up', () => {
    expect(violations([['src/state/store.ts', 'worker/create-engine.ts']])).toEqual([
      'src/state/store.ts → worker/create-engine.ts',
    ]);
    expect(violations([['src/views/app/App.tsx', 'src/pipeline/config.ts']])).toHaveLength(1);
    expect(violations([['src/model/transcript.ts', 'src/formats/index.ts']])).toHaveLength(1);
    expect(violations([['src/state/store.ts', 'worker/api.ts']])).toEqual([]);
  });

  it('no import cycle, type-only imports included', () => {
    expect(cycles(edges)).toEqual([]);
    // The checker itself: a two-file loop and a three-file loop are found.
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'c'],
        ['e', 'f'],
      ]),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('inside pipeline/: the working history and the stage contract never reach a stage, even transitively', () => {
    const next = new Map<string, string[]>();
    for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
    const reached = new Set<string>();
    const queue = ['src/pipeline/working.ts', 'src/pipeline/stage.ts'];
    while (queue.length > 0) {
      const f = queue.pop() as string;
      if (reached.has(f)) continue;
      reached.add(f);
      queue.push(...(next.get(f) ?? []));
    }
    expect([...reached].filter((f) => f.startsWith('src/pipeline/stages/'))).toEqual([]);
  });

  it('the pairing validator depends only on lib and model', () => {
    const out = edges.filter(
      ([from, to]) => from.startsWith('src/pairing/') && !/^src\/(lib|model|pairing)\//.test(to),
    );
    expect(out).toEqual([]);
  });

  it('the UI (state/, views/) reaches the model catalog only through types: its data stays in the worker bundle', () => {
    // Value imports only (`import type` / `export type` are erased); followed transitively through relative imports.
    const VALUE = /^(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm;
    const seen = new Set<string>();
    const queue = all.filter((f) => /^src\/(state|views)\//.test(relative(REPO_ROOT, f)));
    const reached: string[] = [];
    while (queue.length > 0) {
      const f = queue.pop() as string;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const m of readFileSync(f, 'utf8').matchAll(VALUE)) {
        if (m[1] === '@pydantic/genai-prices') reached.push(`${relative(REPO_ROOT, f)} → ${m[1]}`);
        if (!m[1].startsWith('.')) continue;
        const target = resolve(dirname(f), m[1].replace(/\?.*$/, ''));
        if (relative(REPO_ROOT, target).startsWith('src/models/catalog'))
          reached.push(`${relative(REPO_ROOT, f)} → ${relative(REPO_ROOT, target)}`);
        queue.push(target);
      }
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(reached).toEqual([]);
  });
});
