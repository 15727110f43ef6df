// Test helpers: replay a transcript with a preset plus overrides, and look up what happened to results.
import type { PairingViolation, Provider } from '../../src/analyses/pairing.ts';
import type { Block, Transcript } from '../../src/model/transcript.ts';
import { mergeConfig, type PipelineConfig } from '../../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../../src/pipeline/presets.ts';
import type { PipelineEvent } from '../../src/pipeline/stage.ts';
import { type Summarizer, summarizerFor } from '../../src/pipeline/summarizer.ts';
import type { ReplayMode } from '../../src/replay/inputs.ts';
import { replayThread } from '../../src/replay/replay.ts';
import { type Replay, replayTranscript } from '../../src/replay/transcript.ts';
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
  const meter = new TokenMeter(await tokenizer());
  return replayTranscript(t, {
    config,
    mode: o.mode ?? 'recorded',
    provider: o.provider ?? 'anthropic',
    meter,
    summarizer: o.summarizer ?? summarizerFor(config.summarizer),
  });
}

/** The output messages of request `k` of the first thread. */
export async function outputAt(t: Transcript, k: number, o: RunOptions = {}) {
  const config = configOf(o);
  const meter = new TokenMeter(await tokenizer());
  const r = replayThread(
    t.threads[0],
    {
      config,
      mode: o.mode ?? 'recorded',
      provider: o.provider ?? 'anthropic',
      meter,
      summarizer: o.summarizer ?? summarizerFor(config.summarizer),
    },
    calibrate([]),
    k,
    true,
  );
  return r.output ?? [];
}

export function allEvents(r: Replay): PipelineEvent[] {
  return r.threads.flatMap((t) => t.requests.flatMap((q) => q.events));
}

export function allPairing(r: Replay): PairingViolation[] {
  return r.threads.flatMap((t) => t.requests.flatMap((q) => q.pairing));
}

/** Content of the tool_result for `id` in a message list. */
export function resultContent(messages: readonly { blocks: Block[] }[], id: string): string | Block[] | undefined {
  for (const m of messages)
    for (const b of m.blocks) if (b.type === 'tool_result' && b.toolUseId === id) return b.content;
  return undefined;
}
