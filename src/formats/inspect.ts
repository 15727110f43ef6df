// Inspect AI eval logs (formats.md §4) in both shapes: the `.eval` zip (Inspect's default; inspect-eval.ts) and the
// `.json` document (log version 2). Every sample becomes its threads (inspect-sample.ts); the eval spec — task,
// model, log version, status — becomes the transcript's meta. Detection is by content: a JSON document with
// `version` and `eval`, or a zip whose first entries include header.json, _journal/start.json or samples/*.json.

import { pushAll } from '../lib/arrays.ts';
import { arr, display, isObject, type JsonObject, str } from '../lib/json.ts';
import type { ParseIssue, Thread, TranscriptMeta } from '../model/transcript.ts';
import { isEvalEntry, readEvalArchive } from './inspect-eval.ts';
import { sampleThreads, uniqueThreadIds } from './inspect-sample.ts';
import { makeTranscript } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput } from './types.ts';

/** The eval's metadata from a log document, header.json or _journal/start.json (same `version` + `eval`). */
function evalMeta(doc: JsonObject): TranscriptMeta {
  const ev = isObject(doc.eval) ? doc.eval : {};
  const meta: TranscriptMeta = {};
  if (doc.version !== undefined) meta.version = display(doc.version);
  const task = str(ev.task);
  if (task !== undefined) meta.title = task;
  const sessionId = str(ev.eval_id) ?? str(ev.run_id);
  if (sessionId !== undefined) meta.sessionId = sessionId;
  const extra: Record<string, string> = {};
  for (const [k, v] of [
    ['task', task],
    ['model', str(ev.model)],
    ['status', str(doc.status)],
    ['created', str(ev.created)],
  ] as const) {
    if (v !== undefined) extra[k] = v;
  }
  if (Object.keys(extra).length > 0) meta.extra = extra;
  return meta;
}

function parseJsonLog(input: ParseInput) {
  const issues: ParseIssue[] = [];
  const doc = input.doc();
  if (!isObject(doc)) {
    issues.push({ line: 0, severity: 'error', message: 'the file is not one JSON object; nothing to load' });
    return makeTranscript('inspect', {}, [], issues);
  }
  const meta = evalMeta(doc);
  const samples = arr(doc.samples);
  if (!samples) {
    issues.push({
      line: 0,
      severity: 'info',
      message: 'the log has no samples (header-only log, e.g. written with --no-log-samples); nothing to replay',
    });
    return makeTranscript('inspect', meta, [], issues);
  }
  const threads: Thread[] = [];
  samples.forEach((s, i) => {
    if (isObject(s)) pushAll(threads, sampleThreads(s, i, issues, `samples[${i}]`));
    else issues.push({ line: 0, severity: 'error', message: `samples[${i}]: not an object; skipped` });
  });
  uniqueThreadIds(threads, issues);
  return makeTranscript('inspect', meta, threads, issues);
}

function parseArchive(input: ParseInput, ctx: ParseContext) {
  const issues: ParseIssue[] = [];
  const log = readEvalArchive(input, ctx, issues);
  const meta = log.header ? evalMeta(log.header) : {};
  meta.extra = { ...meta.extra, container: '.eval (zip)' };
  if (Object.keys(log.skipped).length > 0) meta.skipped = log.skipped;
  if (!log.header) {
    issues.push({ line: 0, severity: 'warning', message: 'no header.json or _journal/start.json: no eval metadata' });
  } else if (!log.finished) {
    issues.push({
      line: 0,
      severity: 'info',
      message: 'no header.json: the run did not finish (or the file is cut short); metadata from _journal/start.json',
    });
  }
  if (log.threads.length === 0)
    issues.push({ line: 0, severity: 'info', message: 'the log has no readable samples; nothing to replay' });
  return makeTranscript('inspect', meta, log.threads, issues);
}

export const inspectParser: FormatParser = {
  id: 'inspect',
  label: 'Inspect AI eval log',
  archives: true,
  sniff: (head) => {
    if (head.archive) return head.archive.entries.some(isEvalEntry);
    const d = head.doc;
    return isObject(d) && d.version !== undefined && isObject(d.eval);
  },
  parse: (input, ctx) => (input.archive ? parseArchive(input, ctx) : parseJsonLog(input)),
};
