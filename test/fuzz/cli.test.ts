// CLI fuzz (SPEC §8, §10): `tierscope analyze` on mutated fixtures, mutated inline samples and random bytes
// exits 0 (a report on stdout) or 2 (a one-line reason on stderr), never with an uncaught exception; garbage
// argument vectors exit 2 with a reason whose first line says what was wrong.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { applyByteOps, applyLineOps, byteOpArb, inlineSeeds, lineOpArb, realSeeds, windowOf } from './kit.ts';

type Run = { code: number; out: string; err: string };

async function run(argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'tierscope-fuzz-cli-'));
let fileNo = 0;
function write(bytes: Uint8Array, ext: string): string {
  const p = join(dir, `input-${fileNo++}${ext}`);
  writeFileSync(p, bytes);
  return p;
}

/** Exit 0 with a report, or 2 with exactly one stderr line naming the problem. */
function expectOutcome(r: Run, json: boolean): void {
  expect([0, 2]).toContain(r.code);
  if (r.code === 2) {
    expect(r.err).toMatch(/^tierscope: \S/);
    expect(r.err.split('\n')).toHaveLength(1);
    return;
  }
  expect(r.err).toBe('');
  if (!json) {
    expect(r.out).toMatch(/parse issues: \d+/);
    return;
  }
  const report = JSON.parse(r.out) as { parseIssues: { line: number; message: string }[] };
  for (const i of report.parseIssues) {
    expect(Number.isInteger(i.line) && i.line >= 0).toBe(true);
    expect(i.message.length).toBeGreaterThan(0);
  }
}

const seeds = [...inlineSeeds(), ...realSeeds()];
const seedArb = fc.constantFrom(...seeds);
const EXT: Record<string, string> = { inspect: '.json', 'swe-agent': '.traj', tierscope: '.tierscope.json' };

describe('tierscope analyze on hostile files', () => {
  it('mutated fixtures and samples: exit 0 or 2 with a one-line reason', async () => {
    await fc.assert(
      fc.asyncProperty(
        seedArb,
        fc.nat(),
        fc.array(byteOpArb, { maxLength: 4 }),
        fc.array(lineOpArb, { maxLength: 2 }),
        fc.boolean(),
        async (seed, w, byteOps, lineOps, json) => {
          const bytes = applyLineOps(applyByteOps(windowOf(seed, w, 12 * 1024), byteOps), lineOps);
          const file = write(bytes, EXT[seed.format] ?? '.jsonl');
          expectOutcome(await run(['analyze', file, ...(json ? ['--json'] : [])]), json);
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it('random bytes and empty files: exit 2 (or 0), never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 1024 }), async (bytes) => {
        expectOutcome(await run(['analyze', write(bytes, '.jsonl')]), false);
      }),
      { numRuns: 25 },
    );
    const empty = await run(['analyze', write(new Uint8Array(), '.jsonl')]);
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/^tierscope: .*empty/);
  }, 60_000);
});

describe('tierscope with garbage arguments', () => {
  const valid = write(inlineSeeds()[0].bytes, '.jsonl');
  const piece = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom(
      'analyze',
      '--json',
      '--format',
      '--format=bogus',
      '--preset',
      '--preset=nope',
      '--set',
      'no-equals-sign',
      'pipeline.x=1',
      '--mode',
      '--mode=sideways',
      '--provider',
      '--encoding=latin1',
      '--config',
      join(dir, 'missing.json'),
      '--',
      '-x',
      '--=',
      'a\nb',
      '\u0000',
      '\u202e',
    ),
  );

  it('exit 2 with a reason on the first stderr line (0 only for a valid vector or --help)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), fc.boolean(), async (args, withFile) => {
        // Without a command (or with a path in its place) the CLI serves until stopped: an app folder that does not
        // exist makes such a vector end at once, with its reason, as any unusable one does.
        const argv = withFile ? ['analyze', valid, ...args] : [...args, '--app', join(dir, 'no-app')];
        const r = await run(argv);
        expect([0, 2]).toContain(r.code);
        if (r.code === 2) {
          const [first, ...rest] = r.err.split('\n');
          expect(first).toMatch(/^tierscope: \S/);
          // Usage errors add the usage text after the reason; nothing else follows it.
          if (rest.length > 0) expect(rest[0]).toMatch(/^usage: tierscope/);
        } else expect(argv.includes('--help') || argv[0] === 'analyze').toBe(true);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
