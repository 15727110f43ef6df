// `tierscope share` and `tierscope minimize` (SPEC §8): a share link of a transcript (optionally minimized and
// redacted) — or, with `--out`, the same share as a `.tierscope.json` (what a link over 2 MB must be) — and the
// smallest bundle that still reproduces a predicate (redacted with `--redact`). Loaded by main.ts only for these
// commands, so the share codec and the secret scanner are not read on every start.
import { writeFileSync } from 'node:fs';
import { analyze } from '../analyses/analyze.ts';
import { formatBytes } from '../lib/bytes.ts';
import { shareLink } from '../share/codec.ts';
import { DEFAULT_BASE_URL } from '../share/link.ts';
import { toShareFile } from '../share/payload.ts';
import { type Predicate, PredicateError, parsePredicate } from '../share/predicate.ts';
import { type Prepared, prepareShare } from '../share/prepare.ts';
import { classifyLink } from '../share/size.ts';
import { fragmentPairs, readViewPairs, type View } from '../share/view.ts';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { load, type TermIo } from './load.ts';
import { positiveInt } from './options.ts';

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
  // URL parsing drops tabs and line breaks silently; a base that holds one is a mistake, not a link to print.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(base))
    throw new UsageError('--base-url holds a line break or control character');
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

/** `--view`: the view a link opens on, in the app's own encoding (src/share/view.ts); a bad field is an error. */
function viewOf(args: ParsedArgs): View | undefined {
  const text = option(args, 'view');
  if (text === undefined) return undefined;
  const read = readViewPairs(fragmentPairs(text.replace(/^.*#/, '')));
  if (read.warnings.length > 0) throw new UsageError(`--view: ${read.warnings[0]}`);
  return read.view;
}

/** A view that names a compaction the transcript does not have is refused, naming those it has. */
function checkCompaction(view: View, ids: readonly string[]): string | null {
  if (view.compaction === null || ids.includes(view.compaction)) return null;
  return `--view: compaction ${view.compaction} is not in this transcript (${ids.length === 0 ? 'it has none' : `it has ${ids.join(', ')}`})`;
}

async function prepare(args: ParsedArgs, io: TermIo, predicate: Predicate | undefined, redact: boolean, view?: View) {
  const loaded = await load(args, io);
  if (typeof loaded === 'string') return loaded;
  const { transcript, settings, tokenizer } = loaded;
  if (view && view.compaction !== null) {
    const ids = (analyze(transcript, { ...settings, tokenizer }).report.compactions ?? []).map((c) => c.id);
    const bad = checkCompaction(view, ids);
    if (bad) return bad;
  }
  const prepared = await prepareShare(transcript, settings, tokenizer, {
    predicate,
    redact: redact ? { keepPaths: !args.switches.has('redact-paths') } : null,
    minimize: { maxEvaluations: positiveInt(args, 'max-evals', 1000) },
    view,
  });
  if (!prepared.ok) return prepared.error;
  for (const line of [minimizedLine(prepared), redactionLine(prepared), ...prepared.notes])
    if (line) io.err(`tierscope: ${line}`);
  return prepared;
}

function redactFlag(args: ParsedArgs): boolean {
  if (args.switches.has('redact-paths') && !args.switches.has('redact'))
    throw new UsageError('--redact-paths needs --redact');
  return args.switches.has('redact');
}

/** Write the share file to `out`; 0, or 2 with the reason. */
function writeShareFile(out: string, text: string, io: TermIo): number {
  try {
    writeFileSync(out, text);
  } catch (e) {
    io.err(`tierscope: cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  io.err(`tierscope: wrote ${out}`);
  return 0;
}

export async function shareCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const predicate = predicateOf(option(args, 'minimize'), 'minimize');
  const base = baseUrlOf(args);
  const prepared = await prepare(args, io, predicate, redactFlag(args), viewOf(args));
  if (typeof prepared === 'string') {
    io.err(`tierscope: ${prepared}`);
    return 2;
  }
  const out = option(args, 'out');
  if (out !== undefined) return writeShareFile(out, toShareFile(prepared.state), io);
  const link = await shareLink(prepared.state, base);
  const size = classifyLink(link);
  // Over 2 MB the app offers a download; here the same file is written by --out (redacted when --redact is given).
  if (size.class === 'download')
    io.err(
      `tierscope: the link is ${formatBytes(size.bytes)}, over the 2 MB browsers accept: run again with --out <name>.tierscope.json to write the share as a file (it opens by drop), or minimize first`,
    );
  else if (size.class !== 'ok') io.err(`tierscope: ${size.message}`);
  io.out(link);
  return 0;
}

export async function minimizeCommand(args: ParsedArgs, io: TermIo): Promise<number> {
  const spec = option(args, 'predicate');
  if (spec === undefined) throw new UsageError('minimize needs --predicate <predicate>');
  const predicate = predicateOf(spec, 'predicate');
  const prepared = await prepare(args, io, predicate, redactFlag(args));
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
  return writeShareFile(out, text, io);
}
