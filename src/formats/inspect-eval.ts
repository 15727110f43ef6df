// Inspect AI `.eval` logs: a zip of header.json, samples/<id>_epoch_<n>.json, _journal/…, summaries.json and
// reductions.json. Entries stream through zip-entries.ts and are decompressed one at a time; each sample becomes
// its threads as in a `.json` log, header.json (or, for an unfinished run, _journal/start.json) gives the eval
// metadata. A corrupt entry or a truncated archive becomes an issue; every sample read before it still loads.
import { isObject, type JsonObject, tryParseJson } from '../lib/json.ts';
import { decodeAll } from '../lib/lines.ts';
import { firstInvalidUtf8 } from '../lib/utf8.ts';
import type { ParseIssue, Thread } from '../model/transcript.ts';
import { sampleThreads, uniqueThreadIds } from './inspect-sample.ts';
import type { ParseContext, ParseInput } from './types.ts';
import { zipEntries } from './zip-entries.ts';

const HEADER = 'header.json';
const START = '_journal/start.json';
const SAMPLE = /^samples\/[^/]+\.json$/;
/** `samples/<id>_epoch_<n>.json`: the sample's id and epoch, for a sample that lacks them. */
const SAMPLE_NAME = /^samples\/(.+)_epoch_(\d+)\.json$/;

/** An entry only an Inspect `.eval` has (what detection looks for among the first entries). */
export function isEvalEntry(name: string): boolean {
  return name === HEADER || name === START || SAMPLE.test(name);
}

export type EvalArchive = {
  /** header.json; for an unfinished run, _journal/start.json (`finished` false). */
  header?: JsonObject;
  finished: boolean;
  /** Sample threads, ordered by sample id, then epoch. */
  threads: Thread[];
  /** Entries read over but not modelled, by kind. */
  skipped: Record<string, number>;
};

type ReadSample = { id: unknown; epoch: unknown; threads: Thread[] };

/** Numbers by value before strings by code units: Inspect ids are ints or strings. */
function byIdThenEpoch(a: ReadSample, b: ReadSample): number {
  const cmp = (x: unknown, y: unknown) => {
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    const sx = String(x);
    const sy = String(y);
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  };
  return cmp(a.id, b.id) || cmp(a.epoch, b.epoch);
}

function kindOf(name: string): string {
  if (name.startsWith('_journal/')) return 'journal entry';
  if (name === 'summaries.json' || name === 'reductions.json') return name;
  return 'other zip entry';
}

/** One entry's JSON object, or an issue saying why not. */
function entryJson(name: string, bytes: Uint8Array, issues: ParseIssue[]): JsonObject | undefined {
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    issues.push({
      line: 0,
      severity: 'warning',
      byteOffset: bad,
      message: `${name}: invalid UTF-8 at byte ${bad} of the entry; decoded with replacement characters`,
    });
  }
  const r = tryParseJson(decodeAll([bytes]));
  if (r.ok && isObject(r.value)) return r.value;
  const why = r.ok ? 'is not a JSON object' : `is not valid JSON (${r.message})`;
  issues.push({ line: 0, severity: 'error', message: `${name}: ${why}; skipped` });
  return undefined;
}

/** Read an Inspect `.eval` archive. Never throws; problems become issues. */
export function readEvalArchive(input: ParseInput, ctx: ParseContext, issues: ParseIssue[]): EvalArchive {
  const out: EvalArchive = { finished: false, threads: [], skipped: {} };
  let start: JsonObject | undefined;
  const samples = new Map<string, ReadSample>();
  const size = Math.max(1, input.main.size);
  const entries = zipEntries(input.main.chunks(), {
    want: isEvalEntry,
    maxEntryBytes: input.maxDocumentBytes,
    problem: (message) => issues.push({ line: 0, severity: 'error', message }),
    progress: (read) => ctx.progress?.(Math.min(1, read / size)),
  });
  for (const e of entries) {
    if (!isEvalEntry(e.name)) {
      out.skipped[kindOf(e.name)] = (out.skipped[kindOf(e.name)] ?? 0) + 1;
      continue;
    }
    if (!e.bytes) {
      issues.push({ line: 0, severity: 'error', message: `${e.name}: ${e.error ?? 'could not be read'}` });
      continue;
    }
    const doc = entryJson(e.name, e.bytes, issues);
    if (!doc) continue;
    if (e.name === HEADER) out.header = doc;
    else if (e.name === START) start = doc;
    else {
      // A name seen twice: the later copy wins (an in-place rewrite leaves the earlier one as dead space).
      if (samples.has(e.name))
        issues.push({ line: 0, severity: 'info', message: `${e.name}: appears twice; the later copy is used` });
      const named = SAMPLE_NAME.exec(e.name);
      const sample = { ...doc, id: doc.id ?? named?.[1], epoch: doc.epoch ?? (named ? Number(named[2]) : undefined) };
      const threads = sampleThreads(sample, samples.size, issues, e.name, `${e.name}:`);
      samples.set(e.name, { id: sample.id, epoch: sample.epoch, threads });
    }
  }
  out.finished = out.header !== undefined;
  out.header ??= start;
  out.threads = [...samples.values()].sort(byIdThenEpoch).flatMap((s) => s.threads);
  uniqueThreadIds(out.threads, issues);
  ctx.progress?.(1);
  return out;
}
