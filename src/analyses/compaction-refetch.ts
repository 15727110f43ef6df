// After-effects of a compaction (issue 17 deliver 3): the tool calls after it, up to the thread's next compaction
// of the same source, that fetched again what it had folded — a repeat of a call from before it (re-fetches,
// SPEC §5.3; an agent's: any repeat across its summary; the pipeline's: a repeat of a result it folded, however
// late), or a read of a path its summary lost. Tokens are the re-fetched results' own (counted once); dollars as trade-off-cost.ts
// prices a re-fetch (an estimate at the repeat's model).
import type { Thread, Transcript } from '../model/transcript.ts';
import { canonicalTool } from '../pipeline/aliases.ts';
import { inputPaths } from '../pipeline/artifacts.ts';
import type { ThreadReplay } from '../replay/types.ts';
import { resultText } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import type { AuditedCompaction } from './compaction-audit.ts';
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

/** Where each compaction's "after" ends: the next compaction of the same source in the thread, else the end. */
function windows(
  c: AuditedCompaction,
  all: readonly AuditedCompaction[],
  thread: Thread,
): { from: number; to: number } {
  const startOf = (x: AuditedCompaction) =>
    x.messageIndex ?? (x.request !== null ? (thread.requests[x.request]?.inputEnd ?? x.span.to) : x.span.to);
  const from = startOf(c);
  let to = thread.messages.length;
  for (const x of all)
    if (x.thread === c.thread && x.source === c.source && x !== c) {
      const s = startOf(x);
      if (s > from && s < to) to = s;
    }
  return { from, to };
}

/**
 * The re-fetches after each compaction. `refetches` are the run's (refetch.ts); `price` turns re-fetches into
 * dollars (trade-off-cost.ts refetchCost under the run's settings).
 */
export function refetchesAfter(
  t: Transcript,
  tok: Tokenizer,
  compactions: readonly AuditedCompaction[],
  replays: readonly ThreadReplay[],
  found: readonly Refetch[],
  price: (items: Pick<Refetch, 'thread' | 'repeatMessageIndex' | 'tokens'>[]) => (number | null)[],
): RefetchesAfter[] {
  const threads = new Map(t.threads.map((th, i) => [th.id, { th, tr: replays[i] }]));
  return compactions.map((c) => {
    const at = threads.get(c.thread);
    if (!at) return { count: 0, tokens: 0, usd: null, items: [] };
    const { th, tr } = at;
    const win = windows(c, compactions, th);
    const lost = new Set([...c.probes.filesModified.lost, ...c.probes.filesRead.lost].map((x) => x.text));
    const items: Omit<RefetchAfter, 'usd'>[] = [];
    const taken = new Set<string>();
    for (const f of found) {
      if (f.thread !== c.thread || f.kind === 'after-edit') continue;
      // A pipeline summary's repeats are the results it folded itself (a later summary merges, never restores
      // them); an agent's are every repeat across it up to its next compaction.
      if (f.repeatMessageIndex <= win.from || (c.source === 'agent' && f.repeatMessageIndex >= win.to)) continue;
      const folded =
        c.source === 'agent' ? f.firstMessageIndex < win.from : tr?.fates.get(f.firstToolUseId)?.foldedAt === c.request;
      if (!folded) continue;
      taken.add(f.repeatToolUseId);
      items.push({
        tool: f.tool,
        args: f.args,
        toolUseId: f.repeatToolUseId,
        messageIndex: f.repeatMessageIndex,
        why: 'repeat',
        lostItem: lostPathOf(th, f.repeatToolUseId, f.repeatMessageIndex, lost),
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
  });
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
