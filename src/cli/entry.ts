// The CLI as a process: run `runCli` on the arguments, write to stdout/stderr, set the exit code. What
// scripts/build-cli.mjs bundles to dist-cli/tierscope.mjs (no TypeScript compilation at start-up); the build then
// runs it once with `--pack-ranks` to write each encoding's ranks decoded beside it, which the tokenizer reads
// instead of decoding base64 on every start. A reader that stops early (`| head`) closes the pipe: EPIPE ends quietly.
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

if (process.argv[2] === '--pack-ranks') await writeRanks();
else
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${s}\n`),
    ranks: readRanks,
  });
