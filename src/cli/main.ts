// The tierscope CLI (SPEC §8): `analyze` replays a transcript through the compaction pipeline and prints
// a readable summary, or with --json the full report. Exit 0 on success (even with parse issues), 2 on
// unusable input or arguments, with a one-line reason on stderr.
import { existsSync, statSync } from 'node:fs';
import { analyze } from '../analyses/analyze.ts';
import { FORMAT_IDS, parseTranscript } from '../formats/index.ts';
import type { FormatId } from '../model/transcript.ts';
import { createTokenizer } from '../tokens/tokenizer.ts';
import { option, parseArgs, UsageError } from './args.ts';
import { companionFiles, fileFromPath } from './node-input.ts';
import { resolveSettings, VALUED } from './options.ts';
import { formatSummary } from './summary.ts';

const USAGE = [
  'usage: tierscope analyze <file> [--preset P] [--config file.json] [--set key=value]… [--mode recorded|raw]',
  '                         [--provider anthropic|openai-chat|openai-responses|gemini|bedrock] [--format F] [--json]',
].join('\n');

export type CliIo = { out: (s: string) => void; err: (s: string) => void };

/** Run the CLI; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv, VALUED, ['json', 'help']);
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
    const settings = resolveSettings(args);
    const loaded = parseTranscript(fileFromPath(file), companionFiles(file), {
      format: format as FormatId | undefined,
    });
    if (!loaded.ok) {
      io.err(`tierscope: ${loaded.error}`);
      return 2;
    }
    const tokenizer = await createTokenizer(settings.encoding);
    const { report } = analyze(loaded.transcript, { ...settings, preset: settings.preset, tokenizer });
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
