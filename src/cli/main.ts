// The tierscope CLI (SPEC §8): `analyze` prints a readable summary or, with --json, the report.
// Exit 0 on success (even with parse issues), 2 on unusable input or arguments with a one-line reason.
import { existsSync, statSync } from 'node:fs';
import { baseReport } from '../analyses/report.ts';
import { FORMAT_IDS, parseTranscript } from '../formats/index.ts';
import type { FormatId } from '../model/transcript.ts';
import { createTokenizer, ENCODINGS, type EncodingName } from '../tokens/tokenizer.ts';
import { option, parseArgs, UsageError } from './args.ts';
import { companionFiles, fileFromPath } from './node-input.ts';
import { formatSummary } from './summary.ts';

const USAGE = `usage: tierscope analyze <file> [--format F] [--provider P] [--encoding o200k_base|cl100k_base] [--json]`;

export type CliIo = { out: (s: string) => void; err: (s: string) => void };

/** Run the CLI; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv, ['format', 'provider', 'encoding'], ['json', 'help']);
    if (args.switches.has('help') || args.command === undefined) {
      io.out(USAGE);
      return args.command === undefined && !args.switches.has('help') ? 2 : 0;
    }
    if (args.command !== 'analyze') throw new UsageError(`unknown command "${args.command}"`);
    const file = args.positional[0];
    if (!file) throw new UsageError('analyze needs a file');
    if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no such file: ${file}`);
    const format = option(args, 'format');
    if (format !== undefined && !FORMAT_IDS.includes(format as FormatId)) {
      throw new UsageError(`unknown format "${format}" (one of ${FORMAT_IDS.join(', ')})`);
    }
    const encoding = (option(args, 'encoding') ?? 'o200k_base') as EncodingName;
    if (!ENCODINGS.includes(encoding)) throw new UsageError(`unknown encoding "${encoding}"`);
    const loaded = parseTranscript(fileFromPath(file), companionFiles(file), {
      format: format as FormatId | undefined,
    });
    if (!loaded.ok) {
      io.err(`tierscope: ${loaded.error}`);
      return 2;
    }
    const tok = await createTokenizer(encoding);
    const report = baseReport(loaded.transcript, tok);
    io.out(args.switches.has('json') ? JSON.stringify(report, null, 2) : formatSummary(loaded.transcript, report));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`tierscope: ${e.message}\n${USAGE}`);
      return 2;
    }
    io.err(`tierscope: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
}
