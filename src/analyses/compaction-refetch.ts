// After-effects of a compaction (issue 17 deliver 3): the tool calls after it, up to the thread's next compaction
// of the same source, that fetched again what it had folded — a repeat of a call from before it (re-fetches,
// SPEC §5.3; an agent's: any repeat across its summary; the pipeline's: a repeat of a result it folded, however
// late), or a read of a path its summary lost. Tokens are the re-fetched results' own (counted once); dollars as trade-off-cost.ts
// prices a re-fetch (an estimate at the repeat's model).

import { getOrInsert } from '../lib/maps.ts';
import { firstIndex } from '../lib/search.ts';
import type { Thread, Transcript } from '../model/transcript.ts';
import { canonicalTool } from '../pipeline/aliases.ts';
import { inputPaths } from '../pipeline/artifacts.ts';
import type { ThreadReplay } from '../replay/types.ts';
import { resultText } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import type { CompactionFacts } from './compaction-audit.ts';
import { normalizedArgs, type Refetch } from './refetch.ts';

/** One call after a compaction that fetched again what it folded. */
type RefetchAfter = {
  tool: string;
  args: string;
  toolUseId: string;
  messageIndex: number;
  /** `repeat`: the same call was made before the compaction; `lost-path`: it reads a path the summary lost. */
  why: 'repeat' | 'lost-path';
  /** The ledger path it fetched that the summary lost, when it is one. */
  lostItem: string | null;
  firstToolUseId: string | null;
  tokens: number;
  usd: number | null;
};

export type RefetchesAfter = { count: number; tokens: number; usd: number | null; items: RefetchAfter[] };

const READS = new Set(['file_read', 'grep', 'glob', 'directory_list']);

/** Paths a reading call names (file_path / path …). */
function readPaths(name: string, input: unknown): string[] {
  return READS.has(canonicalTool(name)) ? inputPaths(name, input) : [];
}

/** Where a compaction's "after" starts: the message of its boundary (an agent's), else the first message its
 *  request sent after the span. */
function startOf(x: CompactionFacts, thread: Thread): number {
  return x.messageIndex ?? (x.request !== null ? (thread.requests[x.request]?.inputEnd ?? x.span.to) : x.span.to);
}

/** The starts of every compaction by thread and source, ascending: a compaction's "after" ends at the next
 *  start of its own thread and source (else at the thread's end). */
function startsBySource(
  all: readonly CompactionFacts[],
  threads: ReadonlyMap<string, { th: Thread }>,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const x of all) {
    const th = threads.get(x.thread)?.th;
    if (!th) continue;
    const k = `${x.source}\u0000${x.thread}`;
    getOrInsert(out, k, newStarts).push(startOf(x, th));
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/** One thread's re-fetches (never after-edit): by the repeat's message, ties in the run's order (an agent's
 *  window is a range of them; sorted when an agent's compaction first reads them: a run's pipeline summaries do
 *  not, and an agent's after-effects are kept from run to run), and by the request whose pipeline summary folded
 *  the first result. */
type ThreadRefetches = { byRepeat: Refetch[]; sorted: boolean; byFold: Map<number, Refetch[]> };

const newThreadRefetches = (): ThreadRefetches => ({ byRepeat: [], sorted: false, byFold: new Map() });
const newList = (): Refetch[] => [];
const newStarts = (): number[] => [];

/** `firstRows`: by re-fetch, its first call's result's row in its thread's fates (RefetchMemo.firstRows; checked
 *  by id before use, else looked up). */
function refetchIndex(
  found: readonly Refetch[],
  threads: ReadonlyMap<string, { tr?: ThreadReplay }>,
  firstRows: Int32Array | undefined,
) {
  const out = new Map<string, ThreadRefetches>();
  for (let k = 0; k < found.length; k++) {
    const f = found[k];
    if (f.kind === 'after-edit') continue;
    const x = getOrInsert(out, f.thread, newThreadRefetches);
    x.byRepeat.push(f);
    const fates = threads.get(f.thread)?.tr?.fates;
    if (!fates) continue;
    const row = fates.rowOf(f.firstToolUseId, firstRows && k < firstRows.length ? firstRows[k] : -1);
    const foldedAt = row >= 0 ? fates.foldedAt(row) : null;
    if (foldedAt !== null) getOrInsert(x.byFold, foldedAt, newList).push(f);
  }
  return out;
}

/** `x`'s re-fetches by the repeat's message (stable: equal messages keep the run's order). */
function byRepeat(x: ThreadRefetches): Refetch[] {
  if (!x.sorted) {
    x.byRepeat.sort((a, b) => a.repeatMessageIndex - b.repeatMessageIndex);
    x.sorted = true;
  }
  return x.byRepeat;
}

/** The re-fetches a compaction folded that were made in its window: an agent's, every repeat across it before
 *  its next compaction; a pipeline summary's, the results it folded itself (a later summary merges, never
 *  restores them), however late. In the run's order within a message. */
function foldedRepeats(c: CompactionFacts, win: { from: number; to: number }, x: ThreadRefetches): Refetch[] {
  if (c.source !== 'agent')
    return c.request === null ? [] : (x.byFold.get(c.request) ?? []).filter((f) => f.repeatMessageIndex > win.from);
  const out: Refetch[] = [];
  const list = byRepeat(x);
  for (let i = firstIndex(list.length, (k) => list[k].repeatMessageIndex > win.from); i < list.length; i++) {
    const f = list[i];
    if (f.repeatMessageIndex >= win.to) break;
    if (f.firstMessageIndex < win.from) out.push(f);
  }
  return out;
}

/** Each compaction's after-effects as last computed, with the price settings they were priced under. A row is
 *  kept while its audit is (agent rows per thread, pipeline rows per thread replay), and its after-effects depend
 *  only on the row, its thread's repeats (replay-independent but for their kind, which this does not read beyond
 *  after-edit, itself replay-independent) or its replay's folds, and the prices. Bound: the rows alive. */
export type AfterMemo = WeakMap<CompactionFacts, { priceKey: string; value: RefetchesAfter }>;

/**
 * The re-fetches after each compaction. `refetches` are the run's (refetch.ts); `price` turns re-fetches into
 * dollars (trade-off-cost.ts refetchCost under the run's settings, named by `priceKey`). Indexed once per run, so
 * a run with many compactions and re-fetches costs their sum, not their product; a row kept from an earlier run
 * under the same prices is taken from `memo`. `firstRows`: the re-fetches' first rows (RefetchMemo.firstRows), if
 * kept.
 */
export function refetchesAfter(
  t: Transcript,
  tok: Tokenizer,
  compactions: readonly CompactionFacts[],
  replays: readonly ThreadReplay[],
  found: readonly Refetch[],
  price: (items: Pick<Refetch, 'thread' | 'repeatMessageIndex' | 'tokens'>[]) => (number | null)[],
  memo: AfterMemo = new WeakMap(),
  priceKey = '',
  firstRows?: Int32Array,
): RefetchesAfter[] {
  let indexed:
    | {
        threads: Map<string, { th: Thread; tr: ThreadReplay | undefined }>;
        starts: Map<string, number[]>;
        index: Map<string, ThreadRefetches>;
      }
    | undefined;
  const made = () => {
    const threads = new Map(t.threads.map((th, i) => [th.id, { th, tr: replays[i] as ThreadReplay | undefined }]));
    return { threads, starts: startsBySource(compactions, threads), index: refetchIndex(found, threads, firstRows) };
  };
  return compactions.map((c) => {
    const kept = memo.get(c);
    if (kept && kept.priceKey === priceKey) return kept.value;
    indexed ??= made();
    const value = afterOne(c, indexed.threads, indexed.starts, indexed.index, tok, price);
    memo.set(c, { priceKey, value });
    return value;
  });
}

function afterOne(
  c: CompactionFacts,
  threads: ReadonlyMap<string, { th: Thread }>,
  starts: ReadonlyMap<string, number[]>,
  index: ReadonlyMap<string, ThreadRefetches>,
  tok: Tokenizer,
  price: (items: Pick<Refetch, 'thread' | 'repeatMessageIndex' | 'tokens'>[]) => (number | null)[],
): RefetchesAfter {
  const at = threads.get(c.thread);
  if (!at) return { count: 0, tokens: 0, usd: null, items: [] };
  const { th } = at;
  const from = startOf(c, th);
  const next = starts.get(`${c.source}\u0000${c.thread}`) ?? [];
  const after = firstIndex(next.length, (k) => next[k] > from);
  const win = { from, to: after < next.length ? next[after] : th.messages.length };
  const lost = new Set([...c.probes.filesModified.lost, ...c.probes.filesRead.lost].map((x) => x.text));
  const items: Omit<RefetchAfter, 'usd'>[] = [];
  const taken = new Set<string>();
  const x = index.get(c.thread);
  for (const f of x ? foldedRepeats(c, win, x) : []) {
    taken.add(f.repeatToolUseId);
    items.push({
      tool: f.tool,
      args: f.args,
      toolUseId: f.repeatToolUseId,
      messageIndex: f.repeatMessageIndex,
      why: 'repeat',
      lostItem: lost.size > 0 ? lostPathOf(th, f.repeatToolUseId, f.repeatMessageIndex, lost) : null,
      firstToolUseId: f.firstToolUseId,
      tokens: f.tokens,
    });
  }
  if (lost.size > 0) lostPathReads(th, tok, win, lost, taken, items);
  items.sort((a, b) => a.messageIndex - b.messageIndex);
  const usd = price(items.map((x) => ({ thread: c.thread, repeatMessageIndex: x.messageIndex, tokens: x.tokens })));
  let sum: number | null = null;
  const priced = items.map((x, i) => {
    const d = usd[i] ?? null;
    if (d !== null) sum = (sum ?? 0) + d;
    return { ...x, usd: d };
  });
  return { count: priced.length, tokens: priced.reduce((n, x) => n + x.tokens, 0), usd: sum, items: priced };
}

function lostPathOf(th: Thread, id: string, mi: number, lost: ReadonlySet<string>): string | null {
  for (const b of th.messages[mi]?.blocks ?? [])
    if (b.type === 'tool_use' && b.id === id) return readPaths(b.name, b.input).find((p) => lost.has(p)) ?? null;
  return null;
}

/** Reads after the compaction of a path its summary lost (not already counted as a repeat). */
function lostPathReads(
  th: Thread,
  tok: Tokenizer,
  win: { from: number; to: number },
  lost: ReadonlySet<string>,
  taken: Set<string>,
  items: Omit<RefetchAfter, 'usd'>[],
): void {
  const wanted = new Map<string, { name: string; input: unknown; mi: number; path: string }>();
  for (let mi = win.from + 1; mi < win.to; mi++) {
    for (const b of th.messages[mi].blocks) {
      if (b.type === 'tool_use' && !taken.has(b.id)) {
        const path = readPaths(b.name, b.input).find((p) => lost.has(p));
        if (path) wanted.set(b.id, { name: b.name, input: b.input, mi, path });
      } else if (b.type === 'tool_result' && wanted.has(b.toolUseId) && !taken.has(b.toolUseId)) {
        const w = wanted.get(b.toolUseId);
        if (!w) continue;
        taken.add(b.toolUseId);
        const args = normalizedArgs(w.input);
        items.push({
          tool: canonicalTool(w.name),
          args: args.length > 200 ? `${args.slice(0, 200)}…` : args,
          toolUseId: b.toolUseId,
          messageIndex: w.mi,
          why: 'lost-path',
          lostItem: w.path,
          firstToolUseId: null,
          tokens: tok.count(resultText(b)),
        });
      }
    }
  }
}
