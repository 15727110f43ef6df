// The tierscope CLI (SPEC §8): `analyze` replays a transcript through the compaction pipeline and prints
// a readable summary, or with --json the full report; `share` prints a share link (optionally minimized and
// redacted); `minimize` writes the smallest bundle that still reproduces a predicate; `scan` lists the sessions
// of a folder (scan.ts); `serve` serves the app and a folder on 127.0.0.1 (serve.ts). Exit 0 on success
// (even with parse issues), 2 on unusable input or arguments, with a one-line reason on stderr.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { analyze } from '../analyses/analyze.ts';
import { logDefaults } from '../analyses/log-defaults.ts';
import { type SettingsOrigin, settingsOrigin } from '../analyses/settings-origin.ts';
import { FORMAT_IDS, parseTranscript } from '../formats/index.ts';
import type { FormatId, Transcript } from '../model/transcript.ts';
import { DEFAULT_BASE_URL, shareLink } from '../share/codec.ts';
import { toShareFile } from '../share/payload.ts';
import { type Predicate, PredicateError, parsePredicate } from '../share/predicate.ts';
import { type Prepared, prepareShare } from '../share/prepare.ts';
import { classifyLink } from '../share/size.ts';
import { type CachedTokenizer, createTokenizer, type RankLoader } from '../tokens/tokenizer.ts';
import { option, type ParsedArgs, parseArgs, UsageError } from './args.ts';
import { companionFiles, fileFromPath } from './node-input.ts';
import { ALL_FLAGS, COMMANDS, positiveInt, resolveSettings, type Settings, settingsFor } from './options.ts';
import { scanCommand } from './scan.ts';
import { serveCommand } from './serve.ts';
import { formatSummary } from './summary.ts';
import { terminalJson, terminalText } from './terminal.ts';

const USAGE = [
  'usage: tierscope analyze <file> [--preset P] [--config file.json] [--set key=value]… [--mode recorded|raw]',
  '                         [--provider anthropic|openai-chat|openai-responses|gemini|bedrock] [--format F] [--json]',
  '       tierscope share <file> [analyze settings] [--redact [--redact-paths]] [--minimize <predicate>]',
  '                         [--max-evals N] [--base-url URL]        prints a share link',
  '       tierscope minimize <file> --predicate <predicate> [analyze settings] [--max-evals N] [--out file]',
  '                         writes the smallest .tierscope.json that still reproduces the predicate',
  '  predicates: pairing:<rule>[@<stage>][#<toolUseId>]   tier:<toolUseId>=<1|2|3|null>',
  '              break:[observed:|simulated:]<cause>     e.g. pairing:orphan-result@summarize, break:ttl-expired',
  '       tierscope scan <dir> [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json|--ndjson|--csv]',
  '                         one row per session of a folder (Claude Code projects, Codex sessions, Inspect logs)',
  '       tierscope serve [dir] [--port N]   the app and a folder (default ~/.claude/projects), read-only, on 127.0.0.1',
].join('\n');

export type CliIo = {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Packed rank tables the built CLI ships (entry.ts); absent, the tokenizer decodes js-tiktoken's. */
  ranks?: RankLoader;
};
/** The io the commands write through: text escaped for a terminal (terminal.ts); `json` for JSON output. */
type TermIo = CliIo & { json: (s: string) => void };

function termIo(io: CliIo): TermIo {
  return {
    out: (s) => io.out(terminalText(s)),
    err: (s) => io.err(terminalText(s)),
    json: (s) => io.out(terminalJson(s)),
    ranks: io.ranks,
  };
}

type Loaded = { transcript: Transcript; settings: Settings; origin: SettingsOrigin; tokenizer: CachedTokenizer };

/** The file argument, format and settings of any command, parsed and loaded; a string is a load error. */
async function load(args: ParsedArgs, ranks?: RankLoader): Promise<Loaded | string> {
  const file = args.positional[0];
  if (!file) throw new UsageError(`${args.command} needs a file`);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no such file: ${file}`);
  const format = option(args, 'format');
  if (format !== undefined && !FORMAT_IDS.includes(format as FormatId)) {
    throw new UsageError(`unknown format "${format}" (one of ${FORMAT_IDS.join(', ')})`);
  }
  const flags = resolveSettings(args);
  const loaded = parseTranscript(fileFromPath(file), companionFiles(file), {
    format: format as FormatId | undefined,
  });
  if (!loaded.ok) return loaded.error;
  // The provider and window the flags leave open come from the log (SPEC §1.1), as in the app.
  const defaults = logDefaults(loaded.transcript);
  const settings = settingsFor(flags, defaults);
  const origin = settingsOrigin(
    defaults,
    {
      provider: settings.provider,
      contextWindow: settings.config.contextWindow,
      ttlSeconds: settings.config.cache.ttlSeconds,
    },
    { provider: flags.provider !== null, contextWindow: flags.windowChosen, ttl: flags.ttlChosen },
  );
  return {
    transcript: loaded.transcript,
    settings,
    origin,
    tokenizer: await createTokenizer(settings.encoding, ranks),
  };
}

function predicateOf(spec: string | undefined, flag: string): Predicate | undefined {
  if (spec === undefined) return undefined;
  try {
    return parsePredicate(spec);
  } catch (e) {
    if (e instanceof PredicateError) throw new UsageError(`--${flag}: ${e.message}`);
    throw e;
  }
}

function baseUrlOf(args: ParsedArgs): string {
  const base = option(args, 'base-url') ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--base-url is not a URL: ${base}`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) throw new UsageError(`--base-url must be http(s) or file`);
  return base;
}

function minimizedLine(p: Prepared): string | null {
  const m = p.minimized;
  if (!m) return null;
  return `minimized ${m.before.messages} → ${m.after.messages} messages, ${m.before.requests} → ${m.after.requests} requests, ${m.before.threads} → ${m.after.threads} threads in ${m.evaluations} evaluations (${m.status}): ${m.witness.detail}`;
}

function redactionLine(p: Prepared): string | null {
  const r = p.redaction;
  if (!r) return null;
  const tokens = r.tokens
    ? `; tokens ${r.tokens.before} → ${r.tokens.after} (${r.tokens.before > 0 ? (((r.tokens.after - r.tokens.before) / r.tokens.before) * 100).toFixed(1) : '0.0'}%)`
    : '';
  return `redacted ${r.counts.strings} strings (${r.counts.chars} chars), ${r.counts.secrets} secret-looking strings replaced, ${r.counts.keptPaths} paths kept${tokens}`;
}

async function prepare(args: ParsedArgs, io: TermIo, predicate: Predicate | undefined, redact: boolean) {
  const loaded = await load(args, io.ranks);
  if (typeof loaded === 'string') return loaded;
  const { transcript, settings, tokenizer } = loaded;
  const prepared = await prepareShare(transcript, settings, tokenizer, {
    predicate,
    redact: redact ? { keepPaths: !args.switches.has('redact-paths') } : null,
    minimize: { maxEvaluations: positiveInt(args, 'max-evals', 1000) },
  });
  if (!prepared.ok) return prepared.error;
  for (const line of [minimizedLine(prepared), redactionLine(prepared), ...prepared.notes])
    if (line) io.err(`tierscope: ${line}`);
  return prepared;
}

async function shareCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const predicate = predicateOf(option(args, 'minimize'), 'minimize');
  const base = baseUrlOf(args);
  if (args.switches.has('redact-paths') && !args.switches.has('redact'))
    throw new UsageError('--redact-paths needs --redact');
  const prepared = await prepare(args, io, predicate, args.switches.has('redact'));
  if (typeof prepared === 'string') {
    io.err(`tierscope: ${prepared}`);
    return 2;
  }
  const link = await shareLink(prepared.state, base);
  const size = classifyLink(link);
  if (size.class !== 'ok') io.err(`tierscope: ${size.message}`);
  io.out(link);
  return 0;
}

async function minimizeCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const spec = option(args, 'predicate');
  if (spec === undefined) throw new UsageError('minimize needs --predicate <predicate>');
  const predicate = predicateOf(spec, 'predicate');
  const prepared = await prepare(args, io, predicate, false);
  if (typeof prepared === 'string') {
    io.err(`tierscope: ${prepared}`);
    return 2;
  }
  const text = toShareFile(prepared.state);
  const out = option(args, 'out');
  if (out === undefined) {
    io.json(text);
    return 0;
  }
  try {
    writeFileSync(out, text);
  } catch (e) {
    io.err(`tierscope: cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  io.err(`tierscope: wrote ${out}`);
  return 0;
}

async function analyzeCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const loaded = await load(args, io.ranks);
  if (typeof loaded === 'string') {
    io.err(`tierscope: ${loaded}`);
    return 2;
  }
  const { transcript, settings, origin, tokenizer } = loaded;
  const { report } = analyze(transcript, { ...settings, preset: settings.preset, tokenizer, withoutPipeline: true });
  report.defaults = origin;
  if (args.switches.has('json')) io.json(JSON.stringify(report, null, 2));
  else io.out(formatSummary(transcript, report));
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
    if (first.command === undefined) throw new UsageError('no command given');
    const command = first.command;
    if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`unknown command "${command}"`);
    const flags = COMMANDS[command as keyof typeof COMMANDS];
    const args = parseArgs(argv, flags.valued, flags.booleans);
    if (command === 'scan') return await scanCommand(args, io);
    if (command === 'serve') return await serveCommand(args, io);
    if (command === 'share') return await shareCommand(args, io);
    if (command === 'minimize') return await minimizeCommand(args, io);
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
