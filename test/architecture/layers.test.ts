// The folders are the architecture (STYLE.md): lib → model → formats, tokens, models → pipeline → replay → analyses →
// share → state → views; worker/ and cli/ import up to share/. This test reads every import and fails on a
// dependency that points up the order (Perfetto enforces its layering with a tool; this is ours).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const RANK: Record<string, number> = {
  lib: 0,
  model: 1,
  formats: 2,
  tokens: 2,
  models: 2,
  pipeline: 3,
  replay: 4,
  analyses: 5,
  share: 6,
  cli: 7,
  worker: 7,
  state: 8,
  views: 9,
};
/** Same-rank folders that must not import each other. */
const APART = [['formats', 'tokens']];
/** The protocol files of the worker that the browser side may import (types and the wire format). */
const PROTOCOL = new Set(['worker/api.ts', 'worker/wire.ts']);
/** Known, deliberate exceptions (an allowlist, like Perfetto's): the pairing validator depends only on the
 *  model, and the replay runs it after every stage (SPEC §5.1), so replay may import it (request plans keep
 *  the input's checks). */
const ALLOWED = new Set([
  'src/replay/replay.ts → src/analyses/pairing.ts',
  'src/replay/pairing-window.ts → src/analyses/pairing.ts',
  'src/replay/plan.ts → src/analyses/pairing.ts',
]);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(f)) out.push(p);
  }
  return out;
}

function layerOf(rel: string): string | undefined {
  if (rel.startsWith('worker/')) return 'worker';
  const m = /^src\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('layering', () => {
  const all = [...files(join(REPO_ROOT, 'src')), ...files(join(REPO_ROOT, 'worker'))];
  it('finds the source files', () => {
    expect(all.length).toBeGreaterThan(100);
  });
  it('the pairing validator itself depends only on lib and model', () => {
    const deps = files(join(REPO_ROOT, 'src/analyses'))
      .filter((f) => /analyses\/(pairing\.ts|providers\/)/.test(f))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(IMPORT)].map((m) =>
          relative(REPO_ROOT, resolve(dirname(f), m[1] ?? m[2])),
        ),
      )
      .filter((t) => !t.startsWith('src/analyses/pairing') && !t.startsWith('src/analyses/providers/'));
    expect(deps.filter((t) => !/^src\/(lib|model)\//.test(t))).toEqual([]);
  });
  it('the UI (state/, views/) reaches the model catalog only through types: its data stays in the worker bundle', () => {
    // Value imports only (`import type` is erased); followed transitively through relative imports.
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
  it('no import points up the dependency order', () => {
    const bad: string[] = [];
    for (const file of all) {
      const rel = relative(REPO_ROOT, file);
      const from = layerOf(rel);
      if (!from || RANK[from] === undefined) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        if (!spec.startsWith('.')) continue;
        const target = relative(REPO_ROOT, resolve(dirname(file), spec.replace(/\?.*$/, '')));
        const to = layerOf(target);
        if (!to || to === from) continue;
        if (PROTOCOL.has(target) && (from === 'state' || from === 'views')) continue;
        const ok =
          RANK[to] !== undefined &&
          RANK[to] <= RANK[from] &&
          !(RANK[to] === RANK[from] && to !== from) &&
          !APART.some(([a, b]) => (from === a && to === b) || (from === b && to === a));
        if (!ok && !ALLOWED.has(`${rel} → ${target}`)) bad.push(`${rel} → ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
