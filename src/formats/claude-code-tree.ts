// Shared builders for parent-linked session logs (Claude Code JSONL, SPEC §1.1): resolve each line's
// parent, walk the active branch from a leaf back to its root, group lines by root, and assemble a thread
// from a branch — merging one API response split over several lines (same response key) into one message
// and parallel tool results written one per line into one user message, as the API saw them.
import { pushAll } from '../lib/arrays.ts';
import { getOrInsert } from '../lib/maps.ts';
import type {
  Block,
  CompactedFrom,
  Message,
  ObservedUsage,
  ReportedCacheMiss,
  Request,
  Thread,
  ThreadKind,
} from '../model/transcript.ts';
import type { EpochMs, LineNumber } from '../model/units.ts';
import { newThread } from './thread.ts';

/** A node of the tree: its own id and its parent's id (undefined at a root). */
export type TreeNode = { id: string; parent?: string };

export type Tree = {
  /** Index of each node's parent; -1 at roots (no parent, or a parent that is not in the log). */
  parents: number[];
  /** Ids used by more than one node, with the indices of the nodes that use them. */
  duplicates: Map<string, number[]>;
};

/**
 * Resolve parents. Logs are append-only, so a parent id resolves to the nearest earlier node with that id:
 * duplicated ids stay well-formed and no cycle can form. Only when no earlier node has the id does it fall
 * back to the first later one (walks below still guard against the cycles that can make).
 */
export function buildTree(nodes: readonly TreeNode[]): Tree {
  const latest = new Map<string, number>();
  const uses = new Map<string, number[]>();
  const parents = new Array<number>(nodes.length).fill(-1);
  const forward: number[] = [];
  nodes.forEach((n, i) => {
    if (n.parent !== undefined) {
      const p = latest.get(n.parent);
      if (p !== undefined) parents[i] = p;
      else forward.push(i);
    }
    latest.set(n.id, i);
    const list = uses.get(n.id);
    if (list) list.push(i);
    else uses.set(n.id, [i]);
  });
  for (const i of forward) {
    const p = uses.get(nodes[i].parent ?? '')?.[0];
    if (p !== undefined && p !== i) parents[i] = p;
  }
  const duplicates = new Map([...uses].filter(([, list]) => list.length > 1));
  return { parents, duplicates };
}

/**
 * The cycles among parent links, each as its node indices in walk order (child, parent, grandparent, …) starting
 * at its forward link: the node whose parent comes later in the log. Logs are append-only, so a cycle can only
 * close through such a link (buildTree's fallback, or a bridge); every cycle has one. Linear: each node is walked once.
 */
export function cyclesOf(parents: readonly number[]): number[][] {
  // 0 = not visited, 1 = on the current walk, 2 = done.
  const state = new Uint8Array(parents.length);
  const cycles: number[][] = [];
  for (let start = 0; start < parents.length; start++) {
    const walk: number[] = [];
    let i = start;
    while (i >= 0 && state[i] === 0) {
      state[i] = 1;
      walk.push(i);
      i = parents[i];
    }
    if (i >= 0 && state[i] === 1) {
      const cycle = walk.slice(walk.indexOf(i));
      const at = Math.max(
        0,
        cycle.findIndex((n) => parents[n] > n),
      );
      cycles.push([...cycle.slice(at), ...cycle.slice(0, at)]);
    }
    for (const n of walk) state[n] = 2;
  }
  return cycles;
}

/** Node indices from the root down to `leaf` (cycle-safe). */
export function pathTo(tree: Tree, leaf: number): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = leaf; i >= 0 && !seen.has(i); i = tree.parents[i]) {
    seen.add(i);
    out.push(i);
  }
  return out.reverse();
}

/** The root of every node (memoized in node order; falls back to a walk for forward links). */
export function rootsOf(tree: Tree): number[] {
  const roots = new Array<number>(tree.parents.length);
  tree.parents.forEach((p, i) => {
    roots[i] = p < 0 ? i : p < i ? roots[p] : pathTo(tree, i)[0];
  });
  return roots;
}

/** One line of a branch, already normalized; `boundary` marks the agent's compact_boundary line. */
export type BranchItem =
  | { boundary: true; meta: CompactedFrom }
  | {
      boundary?: false;
      line: LineNumber;
      uuid?: string;
      file?: string;
      role: 'user' | 'assistant';
      blocks: Block[];
      time?: EpochMs;
      model?: string;
      meta?: boolean;
      synthetic?: boolean;
      compactSummary?: boolean;
      /** A reminder Claude Code built from an `attachment` line: merged into the user message before it. */
      attachment?: boolean;
      /** Assistant lines: identity of the API response (message.id + requestId) shared by its split lines. */
      responseKey?: string;
      /** Assistant lines that are messages but not API responses (model "<synthetic>"). */
      notRequest?: boolean;
      usage?: ObservedUsage;
      requestId?: string;
      /** The provider's cache-miss reason of the response (null: it reported none). */
      cacheMiss?: ReportedCacheMiss | null;
    };

/** A response seen so far: its message, request, source lines and its blocks serialized once compared. */
type Response = { message: Message; request: Request; lines: LineNumber[]; json?: Map<Block, string> };

/**
 * Build a thread from a branch (root first). Assistant lines with the same response key become one message and
 * one request (usage: the billed usage its lines carry, claude-code-billing.ts); consecutive tool-result lines become
 * one user message. The first request after a compact boundary or a compaction summary gets `boundary`.
 */
export function assembleThread(id: string, kind: ThreadKind, items: Iterable<BranchItem>): Thread {
  const thread = newThread(id, kind);
  const byKey = new Map<string, Response>();
  const lines = new Map<Message, LineNumber[]>();
  let lastIsResults = false;
  let pendingBoundary = false;
  // What the last compact_boundary recorded, for the compaction summary that follows it.
  let boundaryMeta: CompactedFrom | undefined;
  for (const item of items) {
    if (item.boundary) {
      pendingBoundary = true;
      boundaryMeta = item.meta;
      continue;
    }
    const prior = item.responseKey !== undefined ? byKey.get(item.responseKey) : undefined;
    if (prior) {
      appendBlocks(prior, item.blocks);
      prior.lines.push(item.line);
      const r = prior.request;
      if (item.time !== undefined) r.responseTime = item.time;
      if (item.usage && !r.observed) r.observed = item.usage;
      if (item.cacheMiss !== undefined && r.cacheMiss === undefined) r.cacheMiss = item.cacheMiss;
      continue;
    }
    const hasResults = item.blocks.some((b) => b.type === 'tool_result');
    const last = thread.messages[thread.messages.length - 1];
    // Claude Code sends an attachment as a meta user message and merges consecutive user messages before the
    // request, so a reminder after a prompt or after a batch's results travels inside that message.
    if (item.attachment && last?.role === 'user') {
      pushAll(last.blocks, item.blocks);
      lines.get(last)?.push(item.line);
      continue;
    }
    if (item.role === 'user' && hasResults && lastIsResults && last) {
      pushAll(last.blocks, item.blocks);
      lines.get(last)?.push(item.line);
      if (!item.meta) delete last.meta;
      if (item.synthetic) last.synthetic = true;
      continue;
    }
    // Made whole in one literal, the optional fields spread in (in the order they always had): a field added
    // after an object is made goes to a property array of its own, ~25 bytes per object of a million-message log.
    const message: Message = {
      index: thread.messages.length,
      role: item.role,
      blocks: [...item.blocks],
      source: {
        line: item.line,
        shape: 'native',
        ...(item.uuid !== undefined ? { uuid: item.uuid } : {}),
        ...(item.file !== undefined ? { file: item.file } : {}),
      },
      ...(item.time !== undefined ? { time: item.time } : {}),
      ...(item.model !== undefined ? { model: item.model } : {}),
      ...(item.meta ? { meta: true } : {}),
      ...(item.synthetic ? { synthetic: true } : {}),
      ...(item.compactSummary ? { compaction: 'summary' as const } : {}),
      ...(item.compactSummary && boundaryMeta ? { compactedFrom: boundaryMeta } : {}),
    };
    if (item.compactSummary) pendingBoundary = true;
    boundaryMeta = undefined;
    thread.messages.push(message);
    lines.set(message, [item.line]);
    lastIsResults = item.role === 'user' && hasResults;
    if (item.role !== 'assistant' || item.notRequest) continue;
    const request: Request = {
      index: thread.requests.length,
      thread: id,
      inputEnd: message.index,
      responseEnd: message.index + 1,
      line: item.line,
      ...(item.time !== undefined ? { time: item.time, responseTime: item.time } : {}),
      ...(item.model !== undefined ? { model: item.model } : {}),
      ...(item.usage ? { observed: item.usage } : {}),
      ...(item.requestId !== undefined ? { requestId: item.requestId } : {}),
      ...(item.cacheMiss !== undefined ? { cacheMiss: item.cacheMiss } : {}),
      ...(pendingBoundary ? { boundary: 'agent-compaction' as const } : {}),
    };
    pendingBoundary = false;
    thread.requests.push(request);
    if (item.responseKey !== undefined)
      byKey.set(item.responseKey, { message, request, lines: lines.get(message) ?? [] });
  }
  // A message of several lines had blocks and lines pushed to it: both kept at their exact length (a pushed-to
  // array reserves 17 slots, ~7 MB at 40,000 messages).
  for (const [message, list] of lines)
    if (list.length > 1) {
      message.source.lines = list.slice();
      message.blocks = message.blocks.slice();
    }
  return thread;
}

/** Append a split line's blocks, skipping exact copies of blocks already there (a re-written line): the same
 *  JSON. Only blocks of the same type whose id and text agree can be copies, so only those are serialized (most split
 *  lines carry a block of another kind, or another tool call). */
function appendBlocks(prior: Response, blocks: Block[]): void {
  for (const b of blocks) {
    if (prior.message.blocks.some((x) => maybeSame(x, b) && jsonOf(prior, x) === jsonOf(prior, b))) continue;
    prior.message.blocks.push(b);
  }
}

/** False when two blocks cannot serialize alike: another type, or another tool call id or text (as strings). */
function maybeSame(a: Block, b: Block): boolean {
  if (a.type !== b.type) return false;
  const x = a as Partial<Record<'id' | 'text' | 'thinking', unknown>>;
  const y = b as Partial<Record<'id' | 'text' | 'thinking', unknown>>;
  return !differ(x.id, y.id) && !differ(x.text, y.text) && !differ(x.thinking, y.thinking);
}

/** Two field values that serialize differently for sure: strings (or absent) that are not the same. */
const differ = (p: unknown, q: unknown) =>
  p !== q && (typeof p === 'string' || p === undefined) && (typeof q === 'string' || q === undefined);

function jsonOf(prior: Response, b: Block): string {
  prior.json ??= new Map();
  return getOrInsert(prior.json, b, () => JSON.stringify(b));
}
