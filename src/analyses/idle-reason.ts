// Why the pipeline did nothing on a run, in one line, and the what-ifs that make it act (issue 28): on real
// Claude Code logs the default preset never fires — the agent compacts itself (~155k) below the 160k trigger —
// and a newcomer sees an empty tier column with no explanation. Computed from what the log and the config say
// (each thread's largest calibrated request, the agent's own compactions, the trigger), never from the view.
import { maxOf, minOf } from '../lib/arrays.ts';
import type { Transcript } from '../model/transcript.ts';
import { type PipelineConfig, triggerTokens } from '../pipeline/config.ts';

/** A what-if one click away: replay without the agent's compactions, or set config keys (a window). */
export type IdleAction =
  | { kind: 'mode'; mode: 'raw'; label: string }
  | { kind: 'set'; values: Record<string, number>; label: string };

export type IdleReason = {
  /** Why nothing was tiered, summarised or dropped: one sentence with its numbers. */
  text: string;
  /** What the sentence's numbers are: the largest request (calibrated estimate) and where it is. */
  peak: { thread: string; request: number; tokens: number };
  trigger: number;
  actions: IdleAction[];
};

export type IdleInput = {
  config: PipelineConfig;
  mode: 'recorded' | 'raw';
  /** Every request's calibrated estimate of its recorded input (read only when no lossy stage acted). */
  requests: Iterable<{ thread: string; index: number; estimateIn: number }>;
  /** Stages of the run's rewrite events (read up to the first lossy one). */
  eventStages: Iterable<string>;
  /** The agent's own compactions (source `agent`) with the size the agent recorded before each. */
  agentCompactions: readonly { thread: string; request: number | null; preTokens: number | null }[];
  /** Tool-result messages per thread (fewer than `tier3Window`: tiering never touches a result); asked only
   *  when the trigger was reached. */
  resultMessages: () => ReadonlyMap<string, number>;
};

/** Messages carrying a tool result, per thread. */
export function resultMessages(t: Transcript | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const th of t?.threads ?? [])
    out.set(th.id, th.messages.filter((m) => m.blocks.some((b) => b.type === 'tool_result')).length);
  return out;
}

const LOSSY = new Set(['tiers', 'microcompact', 'summarize', 'hardcap']);

/** 155k, 1.2M, 950: how a sentence writes a token count. */
function k(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(Math.round(n));
}

/** The largest window (a multiple of 1,000) whose trigger is at or under `target`, with an output reserve that
 *  keeps the hard cap above the trigger (the contradiction config-conflicts.ts warns about). */
export function windowForTrigger(c: PipelineConfig, target: number): Record<string, number> {
  const at = (thousands: number) => triggerTokens({ ...c, contextWindow: thousands * 1000 });
  // The trigger grows with the window: the largest m (in thousands, up to the current window) with at(m) ≤ target.
  let lo = 1;
  let hi = Math.max(1, Math.floor(c.contextWindow / 1000));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (at(mid) <= target) lo = mid;
    else hi = mid - 1;
  }
  const w = lo * 1000;
  const values: Record<string, number> = { contextWindow: w };
  const room = w - at(lo);
  if (c.outputReserve > room / 2) values.outputReserve = Math.floor(room / 2 / 1000) * 1000;
  return values;
}

/** Why the run rewrote nothing that tiers, clears, summarises or drops; null when it did, or when the config
 *  turns every such stage off (nothing to explain), or when there are no requests. */
export function idleReason(x: IdleInput): IdleReason | null {
  const c = x.config;
  const anyStage = c.tiersEnabled || c.microcompact.enabled || c.summarize.enabled || c.hardcap.enabled;
  if (!anyStage) return null;
  for (const s of x.eventStages) if (LOSSY.has(s)) return null;
  let peak: { thread: string; index: number; estimateIn: number } | undefined;
  for (const r of x.requests) if (peak === undefined || r.estimateIn > peak.estimateIn) peak = r;
  if (peak === undefined) return null;
  const trigger = triggerTokens(c);
  const at = { thread: peak.thread, request: peak.index, tokens: Math.round(peak.estimateIn) };
  const line = `this preset's trigger of ${k(trigger)} (${Math.round(c.triggerRatio * 100)}% of ${k(c.contextWindow)})`;
  if (peak.estimateIn >= trigger) {
    const most = Math.max(0, maxOf(x.resultMessages().values()));
    const text =
      most < c.tier3Window
        ? `The trigger (${k(trigger)}) was reached at request ${peak.index}, but no thread has more than ${most} tool-result messages: all stay in the ${c.tier3Window}-message Tier-3 window, so nothing was rewritten.`
        : `The trigger (${k(trigger)}) was reached at request ${peak.index}, but no stage found anything to rewrite there.`;
    return { text, peak: at, trigger, actions: [] };
  }
  const sizes = x.agentCompactions.map((a) => a.preTokens).filter((n): n is number => n !== null && n > 0);
  const actions: IdleAction[] = [];
  let text: string;
  if (x.agentCompactions.length > 0 && x.mode === 'recorded') {
    const lo = minOf(sizes);
    const hi = maxOf(sizes);
    const n = x.agentCompactions.length;
    const where = sizes.length === 0 ? '' : lo === hi || sizes.length === 1 ? ` at ${k(hi)}` : ` at ${k(lo)}–${k(hi)}`;
    text = `The agent compacted ${n === 1 ? 'once' : `${n} times`}${where}, below ${line}: the pipeline never ran (largest request ≈${k(peak.estimateIn)}).`;
    actions.push({ kind: 'mode', mode: 'raw', label: 'What if: raw mode' });
    const target = sizes.length > 0 ? lo : peak.estimateIn;
    const values = windowForTrigger(c, target);
    actions.push({
      kind: 'set',
      values,
      label: `What if: window ${k(values.contextWindow)}`,
    });
    return { text, peak: at, trigger, actions };
  }
  text = `The largest request is ≈${k(peak.estimateIn)} (request ${peak.index}), below ${line}: the pipeline never ran.`;
  const values = windowForTrigger(c, peak.estimateIn * 0.75);
  if (values.contextWindow < c.contextWindow)
    actions.push({
      kind: 'set',
      values,
      label: `What if: window ${k(values.contextWindow)}`,
    });
  return { text, peak: at, trigger, actions };
}
