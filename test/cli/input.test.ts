// CLI inputs (issue 19, items 3 and 10): gzip logs (node:zlib), stdin as `-` (plain or gzip), a FIFO, a truncated
// gzip that keeps what decompressed, a directory named as such, and a gzip that expands past the limit refused.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { openInput } from '../../src/cli/node-input.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const SAMPLE = join(REPO_ROOT, 'public/samples/cache-break.jsonl');
const plain = readFileSync(SAMPLE);
const dir = mkdtempSync(join(tmpdir(), 'tierscope-cli-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], stdin?: Uint8Array): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    stdin: stdin
      ? async function* () {
          for (let i = 0; i < stdin.length; i += 4096) yield stdin.subarray(i, i + 4096);
        }
      : undefined,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function counts(argv: string[], stdin?: Uint8Array) {
  const r = await run([...argv, '--json'], stdin);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const j = JSON.parse(r.out) as { counts: unknown; format: string; parseIssues: { message: string }[] };
  return j;
}

describe('CLI inputs', () => {
  it('a gzip log, stdin and gzip on stdin give the same analysis as the plain file', async () => {
    const base = await counts(['analyze', SAMPLE]);
    expect(base.format).toBe('claude-code');
    const gz = join(dir, 'cache-break.jsonl.gz');
    writeFileSync(gz, gzipSync(plain));
    expect((await counts(['analyze', gz])).counts).toEqual(base.counts);
    expect((await counts(['analyze', '-'], plain)).counts).toEqual(base.counts);
    expect((await counts(['analyze', '-'], gzipSync(plain))).counts).toEqual(base.counts);
  });

  it('the real binary reads a FIFO and a gzip piped to stdin (child processes: a blocked open cannot stall the suite)', async () => {
    const base = await counts(['analyze', SAMPLE]);
    const bin = join(REPO_ROOT, 'bin/tierscope.cjs');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `cat "${SAMPLE}" > "${fifo}"`]);
    const fromFifo = spawnSync(process.execPath, [bin, 'analyze', fifo, '--json'], { timeout: 120_000 });
    writer.kill();
    expect(fromFifo.stderr.toString()).toBe('');
    expect(JSON.parse(fromFifo.stdout.toString()).counts).toEqual(base.counts);
    const piped = spawnSync(process.execPath, [bin, 'analyze', '-', '--json'], {
      input: gzipSync(plain),
      timeout: 120_000,
    });
    expect(piped.stderr.toString()).toBe('');
    expect(JSON.parse(piped.stdout.toString()).counts).toEqual(base.counts);
  }, 300_000);

  it('a truncated gzip loads what decompressed and says where it stopped', async () => {
    const whole = gzipSync(plain);
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const j = await counts(['analyze', cut]);
    expect(j.parseIssues[0].message).toMatch(
      /^the gzip stream ended early \(.*\); the lines before that point are loaded$/,
    );
    expect((j.counts as { messages: number }).messages).toBeGreaterThan(0);
  });

  it('a directory is named as one, a missing file as missing', async () => {
    const d = await run(['analyze', dir]);
    expect(d.code).toBe(2);
    expect(d.err).toContain(`${dir} is a directory: give one session file`);
    const m = await run(['analyze', join(dir, 'nope.jsonl')]);
    expect(m.code).toBe(2);
    expect(m.err).toContain('no such file:');
  });

  it('a gzip that expands past the limit is refused while it is read', async () => {
    const bomb = join(dir, 'bomb.jsonl.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(8 * 1024 * 1024, '{"type":"summary"}\n')));
    const r = await openInput(bomb, () => [][Symbol.iterator]() as never, 1024 * 1024);
    expect(r).toBe('bomb.jsonl.gz is gzip-compressed and decompresses to more than the 1 MB file-size limit');
    const over = await openInput(
      '-',
      async function* () {
        yield new Uint8Array(600_000);
        yield new Uint8Array(600_000);
      },
      1024 * 1024,
    );
    expect(over).toBe('stdin is over the 1 MB file-size limit');
  });

  it('--config naming a FIFO is refused at once instead of blocking forever', async () => {
    const fifo = join(dir, 'config-fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await run(['analyze', SAMPLE, '--config', fifo]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot read config ${fifo}: not a regular file`);
  });

  it('--base-url with a line break, tab or control character is refused (it would otherwise end up in the link)', async () => {
    for (const base of [
      'http://127.0.0.1:5173/\nInjected: yes',
      'http://127.0.0.1:5173/\t',
      'http://x/\u001b]52;c;eA==\u0007',
    ]) {
      const r = await run(['share', SAMPLE, '--base-url', base]);
      expect(r.code).toBe(2);
      expect(r.err).toContain('--base-url holds a line break or control character');
      expect(r.out).toBe('');
    }
  });
});
