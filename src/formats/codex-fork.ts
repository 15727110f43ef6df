// Codex forks and sub-agents (0.11x): a child rollout names its parent in its first session_meta (`forked_from_id`,
// `source.subagent.thread_spawn {parent_thread_id, depth, agent_nickname, agent_role}`) and, when forked with
// context, replays the parent's rollout before its own lines. Codex builds it so (codex-rs core, AgentControl::
// spawn_agent_with_options): `RolloutRecorder::get_fork_history(parent)` — the parent's rollout items, its
// session_meta included — plus a FunctionCallOutput for the spawn call with FORKED_SPAWN_AGENT_OUTPUT_MESSAGE, then
// the child's own session. So the replay starts at the second session_meta and ends at that output (a fork made
// without a spawn call has no such output: the replay, written at once, ends at the first line more than a second
// after the child's session_meta). The replayed model calls are the parent's (their token_counts carry the parent's
// running totals): context of the child, none of its requests, never billed again. A parent read with its children
// (companion files: later rollouts of its folder) gets each as a sub-agent thread titled by its nickname.
import { isObject, type JsonObject, num, str } from '../lib/json.ts';
import type { Thread, TranscriptMeta, UsageTotals } from '../model/transcript.ts';
import type { LineNumber } from '../model/units.ts';
import { jsonLinesOf } from './jsonl.ts';
import type { ParseContext, ParseInput, SourceFile } from './types.ts';

/** The output Codex gives the spawn call of a forked child (codex-rs FORKED_SPAWN_AGENT_OUTPUT_MESSAGE). */
const FORK_OUTPUT = 'You are the newly spawned agent. The prior conversation history was forked from your parent';
/** A replay is written at once: a line this long after the child's session_meta is the child's own. */
const REPLAY_WRITE_MS = 1000;

/** The call id answered by a fork's own function_call_output, when `p` is one. */
export function forkOutput(p: JsonObject): string | undefined {
  if (p.type !== 'function_call_output') return undefined;
  const out = p.output;
  const text = typeof out === 'string' ? out : isObject(out) ? str(out.content) : undefined;
  return text?.startsWith(FORK_OUTPUT) ? (str(p.call_id) ?? '') : undefined;
}

/** Codex `total_token_usage` → prompt (cached included), cached, output. */
export function totalsOf(total: unknown): UsageTotals | undefined {
  if (!isObject(total)) return undefined;
  const prompt = num(total.input_tokens);
  if (prompt === undefined) return undefined;
  return { prompt, cached: num(total.cached_input_tokens) ?? 0, output: num(total.output_tokens) ?? 0 };
}

/** Who a rollout's first session_meta says it descends from. */
type Lineage = { from: string; nickname?: string; role?: string; depth?: number; forked: boolean };

function lineageOf(p: JsonObject): Lineage | undefined {
  const spawn =
    isObject(p.source) && isObject(p.source.subagent) && isObject(p.source.subagent.thread_spawn)
      ? p.source.subagent.thread_spawn
      : undefined;
  const forkedFrom = str(p.forked_from_id);
  const from = forkedFrom ?? (spawn ? str(spawn.parent_thread_id) : undefined) ?? str(p.parent_thread_id);
  if (from === undefined) return undefined;
  const l: Lineage = { from, forked: forkedFrom !== undefined };
  const nickname = (spawn ? str(spawn.agent_nickname) : undefined) ?? str(p.agent_nickname);
  const role = (spawn ? str(spawn.agent_role) : undefined) ?? str(p.agent_role);
  const depth = spawn ? num(spawn.depth) : undefined;
  if (nickname !== undefined) l.nickname = nickname;
  if (role !== undefined) l.role = role;
  if (depth !== undefined) l.depth = depth;
  return l;
}

/** The fork state of one rollout as it is read. */
export class ForkTracker {
  lineage: Lineage | undefined;
  inheriting = false;
  spawnCallId: string | undefined;
  inheritedTotal: UsageTotals | undefined;
  private metaTime: number | undefined;
  private ended: { messages: number; requests: number } | undefined;

  /** The rollout's first session_meta. */
  read(p: JsonObject): void {
    this.lineage = lineageOf(p);
  }

  /** A later session_meta: in a fork, the parent's, where the replay of its history starts. */
  replayStarts(time: number | undefined): void {
    if (!this.lineage?.forked || this.ended || this.inheriting) return;
    this.inheriting = true;
    this.metaTime = time;
  }

  /** The replay (written at once) is over by a line this much later than its start. */
  endsBefore(time: number | undefined): boolean {
    return (
      this.inheriting && time !== undefined && this.metaTime !== undefined && time - this.metaTime > REPLAY_WRITE_MS
    );
  }

  end(messages: number, requests: number, total: unknown): void {
    if (!this.inheriting) return;
    this.inheriting = false;
    this.ended = { messages, requests };
    this.inheritedTotal = totalsOf(total);
  }

  /** Message indices moved (synthetic outputs inserted before the end of the replay). */
  remap(at: (i: number) => number): void {
    if (this.ended) this.ended.messages = at(this.ended.messages);
  }

  /** Leave the replayed model calls (and usage-only calls among them) out of the thread; record the fork. */
  apply(thread: Thread): void {
    const l = this.lineage;
    if (!l) return;
    if (this.inheriting) this.end(thread.messages.length, thread.requests.length, undefined);
    const ended = this.ended ?? { messages: 0, requests: 0 };
    const firstOwn = thread.messages[ended.messages]?.source.line ?? Number.POSITIVE_INFINITY;
    thread.requests = thread.requests.slice(ended.requests);
    if (thread.billedApart) thread.billedApart = thread.billedApart.filter((b) => b.line >= firstOwn);
    thread.fork = { from: l.from, inheritedRequests: ended.requests, inheritedEnd: ended.messages };
    if (l.nickname !== undefined) thread.fork.nickname = l.nickname;
    if (l.role !== undefined) thread.fork.role = l.role;
    if (l.depth !== undefined) thread.fork.depth = l.depth;
    if (this.spawnCallId) thread.fork.spawnCallId = this.spawnCallId;
  }
}

/** "Kepler (worker), forked from 019ce3fb…": how a fork names itself. */
function forkTitle(f: NonNullable<Thread['fork']>): string {
  const who = f.nickname ? `${f.nickname}${f.role ? ` (${f.role})` : ''}` : 'sub-agent';
  return `${who}, ${f.inheritedRequests > 0 || f.inheritedEnd > 0 ? 'forked' : 'spawned'} from ${f.from.slice(0, 8)}…`;
}

/** A fork read on its own says what it is, in its meta (its parent is not loaded). */
export function describeFork(meta: TranscriptMeta, thread: Thread): void {
  const f = thread.fork;
  if (!f) return;
  const extra = meta.extra ?? {};
  meta.extra = extra;
  extra.forkedFrom = f.from;
  if (f.nickname) extra.agentNickname = f.nickname;
  extra.inheritedRequests = f.inheritedRequests;
  meta.title ??= forkTitle(f);
}

type Reader = { line(no: LineNumber, v: unknown): void; finish(): Thread; meta: TranscriptMeta };

/** The first session_meta of a companion file, without reading past its first line. */
function headMeta(input: ParseInput, f: SourceFile): JsonObject | undefined {
  for (const { value } of jsonLinesOf(input.extraLines(f), { issue: () => {} })) {
    return isObject(value) && value.type === 'session_meta' && isObject(value.payload) ? value.payload : undefined;
  }
  return undefined;
}

/** The companion rollouts that descend from `root` (children, their children …), each read as a sub-agent thread. */
export function readChildren(
  input: ParseInput,
  ctx: ParseContext,
  root: string | undefined,
  reader: (ctx: ParseContext, enveloped: boolean) => Reader,
): Thread[] {
  if (root === undefined || input.extra.length === 0) return [];
  const heads = input.extra.map((f) => ({ f, p: headMeta(input, f) }));
  const family = new Set([root]);
  const out: Thread[] = [];
  const used = new Set<SourceFile>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const { f, p } of heads) {
      const l = p ? lineageOf(p) : undefined;
      const id = p ? (str(p.id) ?? str(p.session_id)) : undefined;
      if (used.has(f) || !l || !family.has(l.from) || id === undefined) continue;
      used.add(f);
      family.add(id);
      grew = true;
      const sub: ParseContext = { issue: (i) => ctx.issue({ ...i, file: f.name }) };
      const r = reader(sub, true);
      for (const { line, value } of jsonLinesOf(input.extraLines(f), sub, f.name)) r.line(line.no, value);
      const t = r.finish();
      t.id = `agent:${l.nickname ?? id.slice(0, 8)}${out.some((x) => x.id === `agent:${l.nickname}`) ? `-${id.slice(0, 8)}` : ''}`;
      t.kind = 'sidechain';
      t.file = f.name;
      t.title = t.fork ? forkTitle(t.fork) : (l.nickname ?? id);
      if (t.fork?.spawnCallId) t.parentToolUseId = t.fork.spawnCallId;
      for (const m of t.messages) m.source.file = f.name;
      out.push(t);
    }
  }
  return out;
}
