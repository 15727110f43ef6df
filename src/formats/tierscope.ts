// Tierscope's own normalized bundle (`.tierscope.json`): what exports and share links carry.
// Export writes the normalized model as versioned JSON; import narrows every field from `unknown`
// (a hand-edited or corrupted bundle yields issues, never an exception) and round-trips exactly.

import { grouped } from '../lib/digits.ts';
import { arr, display, isObject, preview, str } from '../lib/json.ts';
import { sourceFormat } from '../model/source-format.ts';
import type { FormatId, ParseIssue, Thread, Transcript, TranscriptMeta } from '../model/transcript.ts';
import { makeTranscript } from './thread.ts';
import { FORMATS, narrowIssues, narrowMeta, narrowThread } from './tierscope-narrow.ts';
import type { FormatParser, ParseContext } from './types.ts';

const BUNDLE_VERSION = 1;

/** Threads a bundle may hold (the load limit's default); the rest are dropped with one issue. */
const BUNDLE_MAX_THREADS = 10_000;
/** Problems of one bundle listed one by one; past this they are counted in one issue (a link of five million
 *  wrong elements must not become five million messages). */
const BUNDLE_MAX_ISSUES = 1_000;
/** Past this many problems the bundle is refused: it is not a transcript with a few bad fields. */
const BUNDLE_GIVE_UP = 100_000;

class TooManyProblems extends Error {}

export type Bundle = {
  tierscope: typeof BUNDLE_VERSION;
  format: FormatId;
  meta: TranscriptMeta;
  threads: Thread[];
  parseIssues: ParseIssue[];
};

/** The bundle object for a transcript (plain data; JSON.stringify it to write a file). */
export function toBundle(t: Transcript): Bundle {
  const { originalFormat: _drop, ...meta } = t.meta;
  return { tierscope: BUNDLE_VERSION, format: sourceFormat(t), meta, threads: t.threads, parseIssues: t.parseIssues };
}

export function exportBundle(t: Transcript): string {
  return JSON.stringify(toBundle(t));
}

/** Narrow a parsed bundle document into a Transcript; problems are reported, never thrown. */
export function importBundle(doc: unknown, ctx: ParseContext): Transcript {
  let problems = 0;
  const issue = (message: string) => {
    if (++problems <= BUNDLE_MAX_ISSUES) ctx.issue({ line: 0, severity: 'warning', message });
    else if (problems > BUNDLE_GIVE_UP) throw new TooManyProblems();
  };
  let t: Transcript;
  try {
    t = importChecked(doc, ctx, issue);
  } catch (e) {
    if (!(e instanceof TooManyProblems)) throw e;
    const message = `over ${grouped(BUNDLE_GIVE_UP)} fields of this bundle are not what a transcript holds; not read`;
    ctx.issue({ line: 0, severity: 'error', message });
    return makeTranscript('tierscope', {}, []);
  }
  if (problems > BUNDLE_MAX_ISSUES)
    ctx.issue({
      line: 0,
      severity: 'warning',
      message: `${problems - BUNDLE_MAX_ISSUES} more problems in this bundle, not listed (over ${BUNDLE_MAX_ISSUES})`,
    });
  return t;
}

function importChecked(doc: unknown, ctx: ParseContext, issue: (message: string) => void): Transcript {
  if (!isObject(doc)) {
    ctx.issue({ line: 0, severity: 'error', message: 'bundle is not a JSON object' });
    return makeTranscript('tierscope', {}, []);
  }
  if (doc.tierscope !== BUNDLE_VERSION) {
    ctx.issue({
      line: 0,
      severity: 'error',
      message: `bundle version ${display(doc.tierscope)} is not supported (this Tierscope reads version ${BUNDLE_VERSION})`,
    });
  }
  const threads: Thread[] = [];
  const ids = new Set<string>();
  const all = arr(doc.threads) ?? [];
  if (all.length > BUNDLE_MAX_THREADS)
    ctx.issue({
      line: 0,
      severity: 'warning',
      message: `${all.length} threads, over the ${BUNDLE_MAX_THREADS}-thread limit: the last ${all.length - BUNDLE_MAX_THREADS} were dropped`,
    });
  for (const [i, t] of all.slice(0, BUNDLE_MAX_THREADS).entries()) {
    const nt = narrowThread(t, i, issue);
    if (!nt) continue;
    // Thread ids are keys everywhere downstream: a repeated id gets a suffix.
    let id = nt.id;
    for (let n = 2; ids.has(id); n++) id = `${nt.id}#${n}`;
    if (id !== nt.id) {
      issue(`threads[${i}]: id "${nt.id}" is used by an earlier thread; renamed "${id}"`);
      nt.id = id;
      for (const r of nt.requests) r.thread = id;
    }
    ids.add(id);
    threads.push(nt);
  }
  const meta = narrowMeta(doc.meta, issue);
  const original = str(doc.format);
  if (original && original !== 'tierscope') {
    if (FORMATS.has(original as FormatId)) meta.originalFormat = original as FormatId;
    else issue(`format "${preview(original, 40)}" is not a known format; ignored`);
  }
  return { format: 'tierscope', meta, threads, parseIssues: narrowIssues(doc.parseIssues, issue) };
}

export const tierscopeParser: FormatParser = {
  id: 'tierscope',
  label: 'Tierscope bundle',
  sniff: (head) => isObject(head.doc) && 'tierscope' in head.doc && Array.isArray(head.doc.threads),
  parse: (input, ctx) => importBundle(input.doc(), ctx),
};
