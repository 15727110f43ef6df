// The CLI as a process: run `runCli` on the arguments, write to stdout/stderr, set the exit code. What
// scripts/build-cli.mjs bundles to dist-cli/tierscope.cjs (no TypeScript compilation at start-up); the build then
// runs it with `--pack-ranks` to write each encoding's ranks decoded beside it (the tokenizer reads them instead of
// decoding base64 on every start), and with `--warm <file> <folder>` (an analyze and a scan, output dropped) before
// saving V8's code cache (bin/run-built.cjs). A reader that stops early (`| head`) closes the pipe: EPIPE ends quietly.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RankFile } from '../tokens/bpe.ts';
import { packRanks } from '../tokens/packed-ranks.ts';
import { ENCODINGS, type EncodingName, type RankLoader } from '../tokens/tokenizer.ts';
import { runCli } from './main.ts';

const ranksPath = (encoding: EncodingName) => fileURLToPath(new URL(`./${encoding}.ranks`, import.meta.url));

/** A packed file: the pre-tokenizer pattern as one JSON line, then the packed tokens (packed-ranks.ts). */
const readRanks: RankLoader = async (encoding) => {
  const path = ranksPath(encoding);
  if (!existsSync(path)) return null;
  const bytes = readFileSync(path);
  const eol = bytes.indexOf(0x0a);
  return { pat_str: JSON.parse(bytes.subarray(0, eol).toString('utf8')), packed: bytes.subarray(eol + 1) };
};

async function writeRanks(): Promise<void> {
  for (const encoding of ENCODINGS) {
    const mod =
      encoding === 'cl100k_base'
        ? await import('js-tiktoken/ranks/cl100k_base')
        : await import('js-tiktoken/ranks/o200k_base');
    const file = mod.default as RankFile;
    const head = Buffer.from(`${JSON.stringify(file.pat_str)}\n`, 'utf8');
    writeFileSync(ranksPath(encoding), Buffer.concat([head, packRanks(file.bpe_ranks)]));
  }
}

for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });

/** The commands a start mostly runs, so the functions they compile are in the code cache the build saves. */
async function warm(file: string, folder: string): Promise<void> {
  const quiet = { out: () => {}, err: () => {}, ranks: readRanks };
  for (const argv of [
    ['analyze', file],
    ['analyze', file, '--json'],
    ['scan', folder, '--json'], // reads the sessions and keeps their rows (the build's own cache folder)
    ['scan', folder], // the kept rows
  ])
    if ((await runCli(argv, quiet)) !== 0) throw new Error(`warm-up failed: tierscope ${argv.join(' ')}`);
}

async function main(): Promise<void> {
  const [flag, file, folder] = process.argv.slice(2);
  if (flag === '--pack-ranks') return writeRanks();
  if (flag === '--warm' && file && folder) return warm(file, folder);
  const code = await runCli(process.argv.slice(2), {
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${s}\n`),
    ranks: readRanks,
  });
  process.exitCode = code;
  // Done once the output is written (a serve returns when its server closes).
  exitWhenWritten(code);
}

/**
 * End the process as soon as stdout and stderr hold nothing unwritten, instead of when the event loop empties:
 * that also waits for V8's tasks at exit (a full garbage collection, ~20 ms of a 0.3 s `scan`).
 */
function exitWhenWritten(code: number): void {
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  let left = pending.length;
  if (left === 0) process.exit(code);
  for (const s of pending)
    s.once('drain', () => {
      if (--left === 0) process.exit(code);
    });
}

void main();
