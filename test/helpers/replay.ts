// Test helpers: replay a transcript with a preset plus overrides (async, or synchronously with a ready
// tokenizer for fast-check), capture every request's output, spy on summarizer calls, and look up results.

import { analyze } from '../../src/analyses/analyze.ts';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import type { Block, Message, Transcript } from '../../src/model/transcript.ts';
import type { Provider } from '../../src/pairing/validate.ts';
import { mergeConfig, type PipelineConfig } from '../../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../../src/pipeline/presets.ts';
import type { PipelineEvent } from '../../src/pipeline/stage.ts';
import { type Summarizer, summarizerFor } from '../../src/pipeline/summarizer.ts';
import { ReplayCache } from '../../src/replay/cache.ts';
import type { ReplayMode } from '../../src/replay/inputs.ts';
import { replayThread, type ThreadReplay } from '../../src/replay/replay.ts';
import { calibrateTranscript, type Replay, replayTranscript } from '../../src/replay/transcript.ts';
import { calibrate } from '../../src/tokens/calibration.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { type CachedTokenizer, createTokenizer } from '../../src/tokens/tokenizer.ts';

let tok: CachedTokenizer | undefined;
export async function tokenizer(): Promise<CachedTokenizer> {
  tok ??= await createTokenizer('o200k_base');
  return tok;
}

export type RunOptions = {
  preset?: PresetId;
  set?: Record<string, unknown>;
  mode?: ReplayMode;
  provider?: Provider;
  summarizer?: Summarizer;
};

export function configOf(o: RunOptions): PipelineConfig {
  return mergeConfig(presetConfig(o.preset ?? 'seeds'), o.set ?? {});
}

export async function run(t: Transcript, o: RunOptions = {}): Promise<Replay> {
  const config = configOf(o);
  const cache = new ReplayCache(t, new TokenMeter(await tokenizer()));
  return replayTranscript(
    t,
    {
      config,
      mode: o.mode ?? 'recorded',
      provider: o.provider ?? 'anthropic',
      summarizer: o.summarizer ?? summarizerFor(config.summarizer),
    },
    cache,
  );
}

/** The output messages of request `k` of the first thread. */
export async function outputAt(t: Transcript, k: number, o: RunOptions = {}) {
  const config = configOf(o);
  const cache = new ReplayCache(t, new TokenMeter(await tokenizer()));
  const r = replayThread(
    t.threads[0],
    {
      config,
      mode: o.mode ?? 'recorded',
      provider: o.provider ?? 'anthropic',
      summarizer: o.summarizer ?? summarizerFor(config.summarizer),
    },
    cache,
    calibrate([]),
    k,
    true,
  );
  return r.output ?? [];
}

export function allEvents(r: Replay): PipelineEvent[] {
  return r.threads.flatMap((t) => t.requests.flatMap((q) => q.events));
}

/** Content of the tool_result for `id` in a message list. */
export function resultContent(messages: readonly { blocks: Block[] }[], id: string): string | Block[] | undefined {
  for (const m of messages)
    for (const b of m.blocks) if (b.type === 'tool_result' && b.toolUseId === id) return b.content;
  return undefined;
}

export type ThreadRunOptions = RunOptions & {
  until?: number;
  capture?: boolean;
  observe?: (request: number, output: readonly Message[]) => void;
};

/** Synchronous replay of the first thread with a ready tokenizer (fast-check properties, spy summarizers);
 *  calibrated exactly as `run` does. */
export function replayFirst(tk: CachedTokenizer, t: Transcript, o: ThreadRunOptions = {}): ThreadReplay {
  const config = configOf(o);
  const cache = new ReplayCache(t, new TokenMeter(tk));
  const th = t.threads[0];
  const cal = cache.calibrations(calibrateTranscript).get(th.id) ?? calibrate([]);
  return replayThread(
    th,
    {
      config,
      mode: o.mode ?? 'recorded',
      provider: o.provider ?? 'anthropic',
      summarizer: o.summarizer ?? summarizerFor(config.summarizer),
    },
    cache,
    cal,
    o.until,
    o.capture ?? false,
    o.observe,
  );
}

/** Every request's output of the first thread (index = request index). */
export function outputsOf(tk: CachedTokenizer, t: Transcript, o: RunOptions = {}): Message[][] {
  const outs: Message[][] = [];
  replayFirst(tk, t, {
    ...o,
    observe: (k, out) => {
      outs[k] = [...out];
    },
  });
  return outs;
}

/** A summarizer wrapper that counts calls (result and turn summaries) and can be made to fail. */
export function spySummarizer(inner: Summarizer): Summarizer & { resultCalls: number; turnCalls: number } {
  const spy = {
    id: inner.id,
    resultCalls: 0,
    turnCalls: 0,
    summarizeResult(req: Parameters<Summarizer['summarizeResult']>[0]) {
      spy.resultCalls++;
      return inner.summarizeResult(req);
    },
    summarizeTurns(req: Parameters<Summarizer['summarizeTurns']>[0]) {
      spy.turnCalls++;
      return inner.summarizeTurns(req);
    },
  };
  return spy;
}

/** Drop the `before`/`after` block references of events (for deep comparisons of two runs). */
export function withoutBlocks<T extends { events: PipelineEvent[] }>(requests: readonly T[]): T[] {
  return requests.map((q) => ({ ...q, events: q.events.map(({ before: _b, after: _a, ...e }) => e as PipelineEvent) }));
}

/** The report of `t` recorded with the seeds preset, under the log's own provider (SPEC §1.1). */
export function recordedReport(t: Transcript, tk: CachedTokenizer) {
  const provider = logDefaults(t).provider.value;
  return analyze(t, { config: presetConfig('seeds'), preset: 'seeds', mode: 'recorded', provider, tokenizer: tk })
    .report;
}
