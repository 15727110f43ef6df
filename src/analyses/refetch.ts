// Re-fetches (SPEC §5.3): a tool call whose (canonical tool, normalized args) repeats an earlier one in
// the same thread. `after-edit`: the file was written in between (expected); `after-agent-compaction`:
// the agent compacted in between; `after-pipeline`: in the replay the earlier result had been stubbed,
// cleared, summarised or dropped before the repeat — the 37.1 failure; otherwise `plain`.
import { firstIndex } from '../lib/search.ts';
import type { Block, Message, Thread, ToolResultBlock, Transcript } from '../model/transcript.ts';
import { canonicalTool } from '../pipeline/aliases.ts';
import { inputPaths } from '../pipeline/artifacts.ts';
import type { ThreadReplay } from '../replay/replay.ts';
import type { Replay } from '../replay/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';

type RefetchKind = 'after-edit' | 'after-agent-compaction' | 'after-pipeline' | 'plain';

export type Refetch = {
  thread: string;
  tool: string;
  args: string;
  firstToolUseId: string;
  repeatToolUseId: string;
  firstMessageIndex: number;
  repeatMessageIndex: number;
  kind: RefetchKind;
  /** Tokens of the repeated result: what re-fetching cost. */
  tokens: number;
  /** For after-pipeline: what happened to the first result, and at which request. */
  lostBy?: string;
};

/** Stable JSON with sorted keys (so argument order does not matter). */
export function normalizedArgs(input: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .sort()
          .map((k) => [k, norm(o[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(input)) ?? '';
}

/** What a repeat is independent of the replay: computed once per thread and tokenizer. */
type Repeat = Omit<Refetch, 'kind' | 'lostBy'> & {
  edited: boolean;
  compacted: boolean;
  repeatRequest: number;
  /** The first call's result's row in its thread's fates, read once (a thread's rows are the same in every replay;
   *  checked by id before use): −1 when it has no result, −2 before it is read. */
  firstRow: number;
  /** The re-fetch made for it by the last run, and the request and way its first result was lost then: a run
   *  that classifies it alike hands out the same object (a 20k-request log has ~28k re-fetches a run, most of
   *  them classified alike run after run; made anew, each would be copied by scavenges and promoted). */
  made?: Refetch;
  madeLostAt?: number;
  madeHow?: string;
};

/** What the re-fetch analysis keeps from one run to the next of one transcript and tokenizer (RunMemo). */
export class RefetchMemo {
  /** Thread → its repeats (independent of the replay). Bound: one list per thread. */
  readonly repeats = new WeakMap<Thread, Repeat[]>();
  /** Tool result block → its text's tokens (a followed session's growth finds the repeats of its grown thread
   *  again). Bound: the result blocks alive. */
  readonly resultTokens = new WeakMap<Block, number>();
  /** A run's re-fetches (`refetches`' answer) → by re-fetch, its first call's result's row in its thread's fates
   *  (−1: none), for the readers of the same run (compaction-refetch.ts). Bound: the lists alive. */
  readonly firstRows = new WeakMap<readonly Refetch[], Int32Array>();
}

function repeatsOf(thread: Thread, tok: Tokenizer, memo: RefetchMemo): Repeat[] {
  const cached = memo.repeats.get(thread);
  if (cached) return cached;
  const out: Repeat[] = [];
  const seen = new Map<string, { id: string; mi: number }>();
  const writes: { mi: number; paths: string[] }[] = [];
  const compactions: number[] = [];
  const results = new Map<string, ToolResultBlock>();
  for (const m of thread.messages) for (const b of m.blocks) if (b.type === 'tool_result') results.set(b.toolUseId, b);
  const tokensOf = (b: ToolResultBlock | undefined): number => {
    if (!b) return tok.count('');
    let n = memo.resultTokens.get(b);
    if (n === undefined) {
      n = tok.count(resultText(b));
      memo.resultTokens.set(b, n);
    }
    return n;
  };
  const ends = thread.requests.map((r) => r.inputEnd);
  const requestOf = (mi: number) => firstIndex(ends.length, (i) => ends[i] > mi) - 1;
  thread.messages.forEach((m: Message) => {
    if (m.compaction) compactions.push(m.index);
    for (const b of m.blocks) {
      if (b.type !== 'tool_use' || m.role !== 'assistant') continue;
      const canon = canonicalTool(b.name);
      if (canon === 'file_edit' || canon === 'file_write')
        writes.push({ mi: m.index, paths: inputPaths(b.name, b.input) });
      const args = normalizedArgs(b.input);
      const key = `${canon}\u0000${args}`;
      const first = seen.get(key);
      if (first) {
        const paths = inputPaths(b.name, b.input);
        out.push({
          thread: thread.id,
          tool: canon,
          args: args.length > 200 ? `${args.slice(0, 200)}…` : args,
          firstToolUseId: first.id,
          repeatToolUseId: b.id,
          firstMessageIndex: first.mi,
          repeatMessageIndex: m.index,
          tokens: tokensOf(results.get(b.id)),
          edited:
            paths.length > 0 &&
            writes.some((w) => w.mi > first.mi && w.mi < m.index && w.paths.some((p) => paths.includes(p))),
          compacted: compactions.some((c) => c > first.mi && c < m.index),
          repeatRequest: requestOf(m.index),
          firstRow: -2,
        });
      }
      seen.set(key, { id: b.id, mi: m.index });
    }
  });
  memo.repeats.set(thread, out);
  return out;
}

/** The thread's re-fetches, classified against its replay (when given); each one's first row pushed on `rows`. */
function findRefetches(
  thread: Thread,
  tok: Tokenizer,
  tr: ThreadReplay | undefined,
  memo: RefetchMemo,
  rows: number[],
): Refetch[] {
  const repeats = repeatsOf(thread, tok, memo);
  // Fields copied by name: a rest spread per repeat costs more than the classification (re-runs see thousands).
  const fates = tr?.fates;
  const found = repeats.map((r) => {
    // When and how the first call's result was lost (its first lossy rewrite, fold into a summary or drop).
    let row = r.firstRow;
    if (fates && row !== -1) {
      row = fates.rowOf(r.firstToolUseId, row);
      r.firstRow = row;
    }
    rows.push(fates ? row : -1);
    const lostAt = fates && row >= 0 ? fates.lostAt(row) : -1;
    const kind: RefetchKind = r.edited
      ? 'after-edit'
      : r.compacted
        ? 'after-agent-compaction'
        : lostAt >= 0 && lostAt <= r.repeatRequest
          ? 'after-pipeline'
          : 'plain';
    const how = kind === 'after-pipeline' && fates ? fates.lostHow(row) : undefined;
    const prev = r.made;
    if (prev && prev.kind === kind && r.madeHow === how && (how === undefined || r.madeLostAt === lostAt)) return prev;
    const out: Refetch = {
      thread: r.thread,
      tool: r.tool,
      args: r.args,
      firstToolUseId: r.firstToolUseId,
      repeatToolUseId: r.repeatToolUseId,
      firstMessageIndex: r.firstMessageIndex,
      repeatMessageIndex: r.repeatMessageIndex,
      tokens: r.tokens,
      kind,
    };
    if (how !== undefined) out.lostBy = `${how} at request ${lostAt}`;
    r.made = out;
    r.madeHow = how;
    r.madeLostAt = lostAt;
    return out;
  });
  return found;
}

/** Every re-fetch in every thread, classified against the replay (when given). */
export function refetches(t: Transcript, tok: Tokenizer, replay: Replay | undefined, memo: RefetchMemo): Refetch[] {
  const byId = new Map(replay?.threads.map((tr) => [tr.thread, tr]));
  const rows: number[] = [];
  const out = t.threads.flatMap((th) => findRefetches(th, tok, byId.get(th.id), memo, rows));
  memo.firstRows.set(out, Int32Array.from(rows));
  return out;
}
