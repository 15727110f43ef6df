// The tierscope CLI (SPEC §8): `analyze` replays a transcript through the compaction pipeline and prints
// a readable summary, or with --json the full report; `share` prints a share link (optionally minimized and
// redacted); `minimize` writes the smallest bundle that still reproduces a predicate; `scan` lists the sessions
// of a folder (scan.ts); `serve` serves the app and a folder on 127.0.0.1 (serve.ts) — and so does `tierscope` with
// no command: over the session homes found on this machine, or over the file or folders it names. Exit 0 on
// success (even with parse issues), 2 on unusable input or arguments, with a one-line reason on stderr.
import { existsSync } from 'node:fs';
import { analyze } from '../analyses/analyze.ts';
import { type ParsedArgs, parseArgs, UsageError } from './args.ts';
import { type CliIo, load, type TermIo, termIo } from './load.ts';
import { ALL_FLAGS, COMMANDS } from './options.ts';
import { scanCommand } from './scan.ts';
import { formatSummary } from './summary.ts';

export type { CliIo } from './load.ts';

const USAGE = [
  'usage: tierscope [<file> | <dir>…] [--port N] [--open]   the app on 127.0.0.1: your sessions (~/.claude/projects,',
  '                         ~/.codex/sessions, …) in the sessions table, the folders given, or one file with its sub-agents',
  '       tierscope analyze <file> [--preset P] [--config file.json] [--set key=value]… [--mode recorded|raw]',
  '                         [--provider anthropic|openai-chat|openai-responses|gemini|bedrock] [--format F]',
  '                         [--session ID] [--json]   (--session: one session of an opencode database)',
  '       tierscope share <file> [analyze settings] [--redact [--redact-paths]] [--minimize <predicate>]',
  '                         [--view <view>] [--max-evals N] [--base-url URL] [--out file.tierscope.json]',
  '                                                           prints a share link, or writes the share file',
  '       tierscope minimize <file> --predicate <predicate> [analyze settings] [--redact [--redact-paths]]',
  '                         [--max-evals N] [--out file]',
  '                         writes the smallest .tierscope.json that still reproduces the predicate',
  '  predicates: pairing:<rule>[@<stage>][#<toolUseId>]   tier:<toolUseId>=<1|2|3|null>',
  '              break:[observed:|simulated:]<cause>     e.g. pairing:orphan-result@summarize, break:ttl-expired',
  '              compaction:<thread>/<request>:lost:<kind>[=<text>]   compaction:<thread>/<request>:unreadable',
  '              refetch:after-agent-compaction[#<toolUseId>]   refetch:after-pipeline[#<toolUseId>]',
  '  view: what the link opens on, as the app writes it after #: thread=<id>&request=<n>&message=<n>',
  '        &compaction=<compactions[].id>&probe=summary.<kind>.lost.<n>&range=<from>-<to>&detail=…&config=…',
  '       tierscope scan <dir> [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json|--ndjson|--csv]',
  '                         [--no-cache] [--cache-dir DIR]',
  '                         one row per session of a folder (Claude Code projects, Codex sessions, Inspect logs,',
  '                         Gemini CLI chats, Cline/Roo tasks, opencode databases); rows of unchanged files are kept',
  '                         in ~/.cache/tierscope ($XDG_CACHE_HOME, $TIERSCOPE_CACHE_DIR)',
  '       tierscope serve [<file> | <dir>…] [--port N] [--open]   the same, read-only, on 127.0.0.1 only',
  '  <file>: a log, a .gz of one, a pipe, or - for stdin',
].join('\n');

async function analyzeCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const loaded = await load(args, io);
  if (typeof loaded === 'string') {
    io.err(`tierscope: ${loaded}`);
    return 2;
  }
  const { transcript, settings, origin, tokenizer } = loaded;
  const json = args.switches.has('json');
  // The text summary needs no per-request rows (its break causes come from the observed points).
  const a = analyze(transcript, {
    ...settings,
    preset: settings.preset,
    tokenizer,
    withoutPipeline: true,
    reportRows: json,
  });
  a.report.defaults = origin;
  if (json) io.json(JSON.stringify(a.report, null, 2));
  else io.out(formatSummary(transcript, a.report, a.observed));
  return 0;
}

/** Run the CLI; returns the exit code. */
export async function runCli(argv: string[], raw: CliIo): Promise<number> {
  const io = termIo(raw);
  try {
    const first = parseArgs(argv, ALL_FLAGS.valued, ALL_FLAGS.booleans);
    if (first.switches.has('help')) {
      io.out(USAGE);
      return 0;
    }
    // No command, or a file or folder in its place: serve the app over it (or over the session homes).
    if (first.command === undefined || (!Object.hasOwn(COMMANDS, first.command) && existsSync(first.command)))
      return await runCli(['serve', ...argv], raw);
    const command = first.command;
    if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`unknown command "${command}"`);
    const flags = COMMANDS[command as keyof typeof COMMANDS];
    const args = parseArgs(argv, flags.valued, flags.booleans);
    if (command === 'scan') return await scanCommand(args, io);
    // Serving needs node:http, sharing the share codec and the secret scanner: loaded only for these commands (a
    // faster start for the others).
    if (command === 'serve') return await (await import('./serve.ts')).serveCommand(args, io);
    if (command === 'share') return await (await import('./share-commands.ts')).shareCommand(args, io);
    if (command === 'minimize') return await (await import('./share-commands.ts')).minimizeCommand(args, io);
    return await analyzeCommand(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`tierscope: ${oneLine(e.message)}\n${USAGE}`);
      return 2;
    }
    io.err(`tierscope: ${oneLine(e instanceof Error ? e.message : String(e))}`);
    return 2;
  }
}

/** A reason stays on one line even when it quotes a file name or argument holding a line break. */
function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
