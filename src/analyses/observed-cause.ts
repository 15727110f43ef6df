// Why an observed cache read fell (SPEC §5.2), first cause that applies: sidechain, model-changed, ttl-expired
// (1 hour when the thread's usage shows 1-hour writes), agent-compaction, tools-changed / system-changed /
// history-rewritten@N (request logs: the first differing segment of the exact inputs), below-minimum; else the
// session-log evidence of cache-evidence.ts decides, or `unexplained`. Each cause comes with the statements it
// rests on — source lines, times, tool names, token counts — so a reader can check it against the raw log.

import type { Request, Thread, ToolDef } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import { observedPrompt } from '../tokens/calibration.ts';
import type { BreakCause } from './break-causes.ts';
import { firstDifference, fmtGap, fmtTok } from './cache-evidence.ts';
import { cacheApiOfModel, rulesFor } from './cache-settings.ts';

export type Cause = { cause: BreakCause; detail: string; evidence: string[]; gapMs?: number; ttlMs?: number };

const lineOf = (r: Request) => (r.line !== undefined ? ` (line ${r.line})` : '');
const clock = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** The minimum cacheable prompt a logged request was judged by: the config's, else its API's for its model. */
export function observedMin(model: string | undefined, config: PipelineConfig): number {
  return rulesFor(cacheApiOfModel(model), model, config.cache).minCacheable;
}

export type Ttl = { ms: number; why: string };

/** The TTL a thread's cache entries had: 1 hour when its usage shows 1-hour writes, else the config's. */
export function ttlOf(thread: Thread, config: PipelineConfig): Ttl {
  const withUsage = thread.requests.filter((r) => r.observed);
  const oneHour = withUsage.find((r) => (r.observed?.cacheWrite1h ?? 0) > 0);
  if (oneHour)
    return {
      ms: 3_600_000,
      why: `TTL 1 hour: request ${oneHour.index}${lineOf(oneHour)} wrote ${fmtTok(oneHour.observed?.cacheWrite1h ?? 0)} tokens with a 1-hour TTL (ephemeral_1h_input_tokens)`,
    };
  return {
    ms: config.cache.ttlSeconds * 1000,
    why: `TTL ${fmtGap(config.cache.ttlSeconds * 1000)}: none of the thread's ${withUsage.length} responses with usage wrote 1-hour entries`,
  };
}

export function endTime(r: Request): number | undefined {
  return r.responseTime ?? r.time;
}

function compactionLine(t: Thread, a: Request, b: Request): number | undefined {
  for (let i = a.inputEnd; i < Math.min(b.inputEnd, t.messages.length); i++)
    if (t.messages[i].compaction) return t.messages[i].source.line;
  return b.boundary === 'agent-compaction' ? (b.line ?? 0) : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** What changed between two tool lists, in names. */
function toolsDiff(a: readonly ToolDef[] = [], b: readonly ToolDef[] = []): string {
  const before = new Map(a.map((x) => [x.name, x]));
  const after = new Map(b.map((x) => [x.name, x]));
  const added = [...after.keys()].filter((n) => !before.has(n));
  const removed = [...before.keys()].filter((n) => !after.has(n));
  const changed = [...after.keys()].filter((n) => before.has(n) && !sameJson(before.get(n), after.get(n)));
  const parts = [
    added.length > 0 ? `added ${added.slice(0, 5).join(', ')}${added.length > 5 ? ` (+${added.length - 5})` : ''}` : '',
    removed.length > 0
      ? `removed ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ` (+${removed.length - 5})` : ''}`
      : '',
    changed.length > 0 ? `changed ${changed.slice(0, 5).join(', ')}` : '',
  ].filter(Boolean);
  if (parts.length > 0) return `tools ${parts.join('; ')} (${a.length} → ${b.length} tools)`;
  return `the same ${b.length} tools in a different order`;
}

/** Why the cache read of `r` fell relative to `ref` as far as recorded changes tell (first cause that applies). */
export function observedCause(
  t: Thread,
  ref: Request,
  refThread: Thread,
  r: Request,
  first: boolean,
  config: PipelineConfig,
  ttlFor: (thread: Thread) => Ttl = (th) => ttlOf(th, config),
): Cause {
  const read = r.observed?.cacheRead ?? 0;
  if (first && t.kind !== 'main')
    return {
      cause: 'sidechain',
      detail: `first request of ${t.kind} ${t.title ?? t.id}: its prefix differs by design`,
      evidence: [
        `first request of ${t.kind} ${t.title ?? t.id}${lineOf(r)}; the reference is request ${ref.index} of ${refThread.id}${lineOf(ref)}, the latest before it`,
        read > 0
          ? `it read ${fmtTok(read)} tokens (observed): the system prompt and tools it shares with the other threads`
          : 'it read nothing from cache (observed): not even the system prompt and tools are shared',
      ],
    };
  if (ref.model && r.model && ref.model !== r.model)
    return {
      cause: 'model-changed',
      detail: `model changed from ${ref.model} to ${r.model}`,
      evidence: [
        `request ${ref.index}${lineOf(ref)} used ${ref.model}, this request${lineOf(r)} ${r.model}: each model has its own cache`,
      ],
    };
  const gapFrom = endTime(ref);
  if (gapFrom !== undefined && r.time !== undefined) {
    const ttl = ttlFor(refThread);
    if (r.time - gapFrom > ttl.ms) {
      return {
        cause: 'ttl-expired',
        detail: `cache expired: ${fmtGap(r.time - gapFrom)} since the previous response; TTL ${fmtGap(ttl.ms)}`,
        evidence: [
          `the previous response${lineOf(ref)} ended at ${clock(gapFrom)} UTC, this request${lineOf(r)} was sent at ${clock(r.time)} UTC: ${fmtGap(r.time - gapFrom)} apart`,
          ttl.why,
          `it read ${fmtTok(read)} tokens (observed): what another cache entry still held`,
        ],
        gapMs: r.time - gapFrom,
        ttlMs: ttl.ms,
      };
    }
  }
  if (t === refThread) {
    const line = compactionLine(t, ref, r);
    if (line !== undefined)
      return {
        cause: 'agent-compaction',
        detail: 'the agent compacted its history between these requests',
        evidence: [
          `the agent's compaction ${line > 0 ? `at line ${line} ` : ''}replaced the history before this request`,
        ],
      };
  }
  if (ref.exactPrefix && r.exactPrefix) {
    if (!sameJson(ref.exactPrefix.tools, r.exactPrefix.tools))
      return {
        cause: 'tools-changed',
        detail: 'the tool definitions changed',
        evidence: [
          `request ${ref.index}${lineOf(ref)} → this request${lineOf(r)}: ${toolsDiff(ref.exactPrefix.tools, r.exactPrefix.tools)}`,
          'tools come first in the prefix: a change there invalidates everything after it',
        ],
      };
    if (!sameJson(ref.exactPrefix.system, r.exactPrefix.system)) {
      const a = ref.exactPrefix.system ?? [];
      const b = r.exactPrefix.system ?? [];
      let i = 0;
      while (i < Math.min(a.length, b.length) && sameJson(a[i], b[i])) i++;
      return {
        cause: 'system-changed',
        detail: 'the system prompt changed',
        evidence: [`system block ${i} differs between request ${ref.index}${lineOf(ref)} and this request${lineOf(r)}`],
      };
    }
  }
  if (ref.exactInput && r.exactInput) {
    const at = firstDifference(ref.exactInput, r.exactInput);
    if (at < ref.exactInput.length)
      return {
        cause: `history-rewritten@${at}`,
        detail: `message ${at} of the previous request was rewritten`,
        evidence: [
          `message ${at} of the exact input differs from request ${ref.index}'s${lineOf(ref)} (the ${at} messages before it are identical)`,
        ],
      };
  }
  const refPrompt = ref.observed ? observedPrompt(ref.observed) : 0;
  const min = observedMin(ref.model, config);
  if (refPrompt < min)
    return {
      cause: 'below-minimum',
      detail: `the previous prompt (${refPrompt} tokens) is below the ${min}-token minimum`,
      evidence: [
        `request ${ref.index}${lineOf(ref)} sent ${fmtTok(refPrompt)} prompt tokens (observed), below ${ref.model ?? 'the model'}'s ${fmtTok(min)}-token minimum`,
      ],
    };
  return { cause: 'unexplained', detail: 'no recorded change explains the drop', evidence: [] };
}
