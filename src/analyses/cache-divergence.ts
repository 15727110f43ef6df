// Where an observed cache break's cached prefix ended (issue 16). The observed cache read says how many tokens of
// the prompt were served from cache; the calibrated estimate of the reconstructed input (calibration.ts: the
// unlogged offset first, then every block at the tokenizer factor, tool-block framing and hidden thinking) says
// which message and block sit at that many tokens. The uncertainty is the estimate's miss at this request (the
// observed prompt is known) plus 3% of the tokens after the read and, for OpenAI, at least its 128-token step. A read inside what the log does not hold (system
// prompt, tool definitions, injected context) is placed at the input's first message, region `unlogged-prefix`.
// Placements share running sums per message array (PlacementMemo), so placing every break of a log is linear.

import { getOrInsert } from '../lib/maps.ts';
import { firstIndex } from '../lib/search.ts';
import type { Message, Request, Thread } from '../model/transcript.ts';
import { InputBuilder, type InputView } from '../replay/inputs.ts';
import { NOTE_AT, type RequestEstimate } from '../tokens/calibration.ts';
import { isThinking, isToolBlock } from '../tokens/hidden.ts';
import type { TokenMeter } from '../tokens/meter.ts';

export type Divergence = {
  /** The first message not wholly inside the cached prefix (a message index of the thread, or of the request's
   *  exact input for request logs). */
  messageIndex: number;
  /** The block of that message at which the cached prefix ended. */
  blockIndex: number;
  /** Where the cached prefix ended, in the provider's tokens (observed: the cache read). */
  tokens: number;
  /** How far the estimated position of that message may be off (estimated). */
  uncertaintyTokens: number;
  /** `unlogged-prefix`: inside what the log does not hold before the first message. */
  region: 'unlogged-prefix' | 'messages';
  /** Estimated tokens before the divergence message (its start) and of the unlogged front of the prompt. */
  messageStart: number;
  unloggedTokens: number;
};

/** One request's input with estimated cumulative positions, what the locator and the evidence read. */
export type PlacedInput = {
  /** Messages of the input, and message `i` of it (a window over the thread's array: never copied). */
  count: number;
  message: (i: number) => Message;
  /** Estimated tokens before message `i` (`i = count`: the estimate's end). */
  start: (i: number) => number;
  /** Tokens before the first message: the unlogged offset plus the counted static prefix (× factor). */
  front: number;
};

/** Running sums over a message array (tokens, thinking tokens, tool blocks, thinking messages), grown on demand. */
type Sums = { tok: number[]; think: number[]; tools: number[]; thinking: number[] };

/**
 * What placing many requests of one log shares (issue 29: every break re-placed its whole input, and each placement
 * rebuilt the thread's input index, so a log where every request breaks took quadratic time): an input builder per
 * thread and running sums per message array, so a placement is a few lookups. Made per observed timeline.
 */
export class PlacementMemo {
  private readonly builders = new Map<Thread, InputBuilder>();
  private readonly sums = new Map<readonly Message[], Sums>();
  constructor(private readonly meter: TokenMeter) {}

  view(thread: Thread, r: Request): InputView {
    return getOrInsert(this.builders, thread, () => new InputBuilder(thread, 'recorded')).view(r);
  }

  /** Running sums of `array` through position `end` (exclusive). */
  sumsOf(array: readonly Message[], end: number): Sums {
    const s = getOrInsert(this.sums, array, () => ({ tok: [0], think: [0], tools: [0], thinking: [0] }));
    for (let j = s.tok.length - 1; j < end; j++) {
      let tok = 0;
      let think = 0;
      let tools = 0;
      for (const b of array[j].blocks) {
        const n = this.meter.block(b);
        tok += n;
        if (isThinking(b)) think += n;
        if (isToolBlock(b)) tools++;
      }
      s.tok.push(s.tok[j] + tok);
      s.think.push(s.think[j] + think);
      s.tools.push(s.tools[j] + tools);
      s.thinking.push(s.thinking[j] + (think > 0 || array[j].blocks.some(isThinking) ? 1 : 0));
    }
    return s;
  }
}

/** The request's recorded input with the estimated token position of every message. */
export function placeInput(
  thread: Thread,
  r: Request,
  est: RequestEstimate,
  factor: number,
  meter: TokenMeter,
  memo = new PlacementMemo(meter),
): PlacedInput {
  const view = memo.view(thread, r);
  const { array, start, end } = view;
  const s = memo.sumsOf(array, end);
  // Hidden reasoning sits in the thinking messages it was counted for (Codex: the current turn's only); an earlier
  // turn's reasoning is out of the prompt. Message indexes ascend along the array: `hiddenAt` is the first position
  // whose message counts its hidden reasoning.
  const from = est.hiddenFrom ?? 0;
  const hiddenAt = start + firstIndex(end - start, (i) => array[start + i].index >= from);
  const tools = s.tools[end] - s.tools[start];
  const thinking = s.thinking[end] - s.thinking[hiddenAt];
  const perTool = tools > 0 ? est.framing / tools : 0;
  const perThinking = thinking > 0 ? est.hidden / thinking : 0;
  const front = Math.max(0, est.offset + factor * est.prefix);
  const startOf = (i: number) => {
    const p = start + i;
    const gone = s.think[Math.min(p, hiddenAt)] - s.think[start];
    return (
      front +
      factor * (s.tok[p] - s.tok[start] - gone) +
      perTool * (s.tools[p] - s.tools[start]) +
      perThinking * (p > hiddenAt ? s.thinking[p] - s.thinking[hiddenAt] : 0)
    );
  };
  return { count: end - start, message: (i) => array[start + i], start: startOf, front };
}

/** The block of `m` (starting at `start`) that holds token position `at`. */
function blockAt(m: Message, start: number, at: number, factor: number, meter: TokenMeter): number {
  let pos = start;
  for (let j = 0; j < m.blocks.length; j++) {
    pos += factor * meter.block(m.blocks[j]);
    if (pos > at) return j;
  }
  return Math.max(0, m.blocks.length - 1);
}

/**
 * Where a read of `read` cached tokens ended in the placed input. `observedPrompt` is the request's observed prompt
 * (the estimate's miss against it is the uncertainty), `step` the API's caching step (1: none).
 */
export function locateDivergence(
  placed: PlacedInput,
  read: number,
  observedPrompt: number,
  step: number,
  factor: number,
  meter: TokenMeter,
): Divergence | undefined {
  const { count, front } = placed;
  if (count === 0) return undefined;
  const end = placed.start(count);
  // Positions are counted back from the end: off by the estimate's miss at this request, plus the calibration's
  // ±3% accuracy target over the tokens between the read and the end (a first request's inferred offset makes
  // its miss 0, not its positions exact).
  const spread = Math.abs(end - observedPrompt) + NOTE_AT * Math.max(0, end - read);
  const uncertaintyTokens = Math.round(Math.max(step > 1 ? step : 0, spread));
  const base = { tokens: read, uncertaintyTokens, unloggedTokens: Math.round(front) };
  if (read < front)
    return {
      ...base,
      messageIndex: placed.message(0).index,
      blockIndex: 0,
      region: 'unlogged-prefix',
      messageStart: 0,
    };
  // The last message starting at or before the read (binary search over the ascending starts).
  const lo = Math.max(0, firstIndex(count, (i) => placed.start(i) > read) - 1);
  const m = placed.message(lo);
  const at = placed.start(lo);
  return {
    ...base,
    messageIndex: m.index,
    blockIndex: blockAt(m, at, read, factor, meter),
    region: 'messages',
    messageStart: Math.round(at),
  };
}
