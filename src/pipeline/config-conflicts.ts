// Thresholds that contradict each other (issue 28): each key can be valid alone while the set makes the pipeline
// do something nobody meant — a hard cap under the trigger drops messages before tiers and summaries ever run, a
// landing line above the trigger has summaries aim above where they start, a Tier-1 distance inside the Tier-3
// window leaves no Tier 2. The UI says so while a value is typed, before it runs; the CLI could too.
import { hardcapTokens, landingTokens, type PipelineConfig, triggerTokens } from './config.ts';

export type ConfigConflict = {
  /** Stable id of the contradiction. */
  id: 'hardcap-under-trigger' | 'no-room' | 'landing-above-trigger' | 'no-tier-2';
  /** The keys it involves (a control shows the warning beside each). */
  keys: string[];
  text: string;
};

function k(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e6) return `${+(n / 1e6).toFixed(2)}M`;
  if (a >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

const WINDOW = ['contextWindow', 'outputReserve', 'triggerRatio', 'triggerBufferTokens'];

/** Every contradiction among a config's thresholds, most severe first; [] when they agree. */
export function configConflicts(c: PipelineConfig): ConfigConflict[] {
  const out: ConfigConflict[] = [];
  const cap = hardcapTokens(c);
  const trigger = triggerTokens(c);
  const landing = landingTokens(c);
  if (c.hardcap.enabled && cap <= 0)
    out.push({
      id: 'no-room',
      keys: ['contextWindow', 'outputReserve'],
      text: `The output reserve (${k(c.outputReserve)}) leaves no room in the ${k(c.contextWindow)} window: the hard cap drops everything it may.`,
    });
  else if (c.hardcap.enabled && cap < trigger)
    out.push({
      id: 'hardcap-under-trigger',
      keys: WINDOW,
      text: `The hard cap (${k(cap)} = window ${k(c.contextWindow)} − reserve ${k(c.outputReserve)}) is under the trigger (${k(trigger)}): messages are dropped before tiers and summaries run. Raise the window, lower the reserve or the trigger.`,
    });
  if (c.summarize.enabled && landing > trigger)
    out.push({
      id: 'landing-above-trigger',
      keys: ['landingRatio', 'landingBufferTokens', 'triggerRatio', 'triggerBufferTokens'],
      text: `The landing line (${k(landing)}) is above the trigger (${k(trigger)}): a summary would aim above where summarising starts.`,
    });
  if (c.tiersEnabled && c.tier1Distance <= c.tier3Window)
    out.push({
      id: 'no-tier-2',
      keys: ['tier1Distance', 'tier3Window'],
      text: `Tier 1 starts at distance ${c.tier1Distance}, inside the ${c.tier3Window}-message Tier-3 window: no result gets Tier 2.`,
    });
  return out;
}
