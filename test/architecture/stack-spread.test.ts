// No array is spread onto the stack in the core (issue 29, item 1: `texts.push(...made)` over a session's 70,000
// tool calls ended every run in the app with "Maximum call stack size exceeded"). The Biome plugin
// no-stack-spread.grit (part of `npm run lint`) finds spreads into call arguments and `apply`; this checks that it
// finds each shape in a sample file, lets the harmless ones pass, and that src/ and worker/ hold none.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxOf, minOf, pushAll, spliceIn } from '../../src/lib/arrays.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const BIOME = join(REPO_ROOT, 'node_modules', '.bin', 'biome');
const dir = mkdtempSync(join(tmpdir(), 'tierscope-spread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines of `file` (relative to `root`) the plugin reports, with the repo's biome.json and plugin. */
function flagged(root: string, paths: string[]): string[] {
  const r = spawnSync(BIOME, ['lint', '--max-diagnostics=1000', '--colors=off', ...paths], {
    cwd: root,
    encoding: 'utf8',
  });
  const out = `${r.stdout}\n${r.stderr}`;
  return [...out.matchAll(/^(\S+):(\d+):\d+ plugin/gm)].map((m) => `${m[1]}:${m[2]}`);
}

describe('the no-stack-spread lint', () => {
  it('finds every spread into a call and every apply, and nothing else', () => {
    const root = join(dir, 'repo');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(join(root, 'test'), { recursive: true });
    mkdirSync(join(root, 'test', 'architecture'), { recursive: true });
    cpSync(
      join(REPO_ROOT, 'test', 'architecture', 'no-stack-spread.grit'),
      join(root, 'test/architecture/no-stack-spread.grit'),
    );
    writeFileSync(
      join(root, 'biome.json'),
      JSON.stringify({ plugins: ['./test/architecture/no-stack-spread.grit'], linter: { rules: { preset: 'none' } } }),
    );
    const sample = [
      'export function f(a: number[], b: number[], ...args: unknown[]) {', // 1
      '  a.push(...b);', // 2: flagged
      '  a.push(1, ...b);', // 3: flagged
      '  const m = Math.max(...b);', // 4: flagged
      '  const s = String.fromCharCode(...b);', // 5: flagged
      '  const set = new Set(...[b]);', // 6: flagged
      '  Math.min.apply(null, b);', // 7: flagged
      '  Reflect.apply(Math.max, null, b);', // 8: flagged
      '  const c = [...a, ...b];', // 9: an array literal: fine
      '  const o = { ...args };', // 10: an object spread: fine
      '  g(...args);', // 11: forwarding its own rest parameter: fine
      '  g([...b]);', // 12: fine
      '  return [m, s, set, c, o];', // 13
      '}', // 14
      'function g(...x: unknown[]) { return x; }', // 15
    ].join('\n');
    writeFileSync(join(root, 'src', 'sample.ts'), sample);
    writeFileSync(join(root, 'test', 'sample.ts'), sample);
    expect(flagged(root, ['src', 'test'])).toEqual([2, 3, 4, 5, 6, 7, 8].map((n) => `src/sample.ts:${n}`));
  });

  it('src/ and worker/ hold no spread into a call', () => {
    expect(flagged(REPO_ROOT, ['src', 'worker'])).toEqual([]);
  });

  it('the helpers agree with the spreads they replace, on arrays past the stack', () => {
    const big = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect(pushAll([1], big)).toHaveLength(300_001);
    expect(maxOf(big)).toBe(big.reduce((a, b) => Math.max(a, b)));
    expect(minOf(big)).toBe(big.reduce((a, b) => Math.min(a, b)));
    expect(maxOf([])).toBe(Number.NEGATIVE_INFINITY);
    expect(minOf([], 0)).toBe(0);
    for (const items of [[], [9], [7, 8, 9], big.slice(0, 20)])
      for (const deleteCount of [0, 1, 5]) {
        const a = big.slice(0, 50);
        const b = a.slice();
        const removed = spliceIn(a, 10, deleteCount, items);
        expect(removed).toEqual(b.splice(10, deleteCount, ...items));
        expect(a).toEqual(b);
      }
  });
});
