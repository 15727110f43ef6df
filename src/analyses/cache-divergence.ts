// Where an observed cache break's cached prefix ended (issue 16). The observed cache read says how many tokens of
// the prompt were served from cache; the calibrated estimate of the reconstructed input (calibration.ts: the
// unlogged offset first, then every block at the tokenizer factor, tool-block framing and hidden thinking) says
// which message and block sit at that many tokens. The uncertainty is the estimate's miss at this request (the
// observed prompt is known) plus 3% of the tokens after the read and, for OpenAI, at least its 128-token step. A read inside what the log does not hold (system
// prompt, tool definitions, injected context) is placed at the input's first message, region `unlogged-prefix`.
import type { Message, Request, Thread } from '../model/transcript.ts';
import { InputBuilder } from '../replay/inputs.ts';
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
  messages: readonly Message[];
  /** starts[i] = estimated tokens before messages[i]; starts[messages.length] = the estimate's end. */
  starts: number[];
  /** Tokens before the first message: the unlogged offset plus the counted static prefix (× factor). */
  front: number;
};

/** The request's recorded input with the estimated token position of every message. */
export function placeInput(
  thread: Thread,
  r: Request,
  est: RequestEstimate,
  factor: number,
  meter: TokenMeter,
): PlacedInput {
  const view = new InputBuilder(thread, 'recorded').view(r);
  const messages = view.array.slice(view.start, view.end);
  // Hidden reasoning sits in the thinking messages it was counted for (Codex: the current turn's only).
  const hides = (m: Message) => m.blocks.some(isThinking) && m.index >= (est.hiddenFrom ?? 0);
  let tools = 0;
  let thinking = 0;
  for (const m of messages) {
    if (hides(m)) thinking++;
    for (const b of m.blocks) if (isToolBlock(b)) tools++;
  }
  const perTool = tools > 0 ? est.framing / tools : 0;
  const perThinking = thinking > 0 ? est.hidden / thinking : 0;
  const front = Math.max(0, est.offset + factor * est.prefix);
  const starts: number[] = [];
  let pos = front;
  for (const m of messages) {
    starts.push(pos);
    if (hides(m)) pos += perThinking;
    const gone = m.index < (est.hiddenFrom ?? 0); // an earlier turn's reasoning: out of the prompt (Codex)
    for (const b of m.blocks)
      if (!(gone && isThinking(b))) pos += factor * meter.block(b) + (isToolBlock(b) ? perTool : 0);
  }
  starts.push(pos);
  return { messages, starts, front };
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
  const { messages, starts, front } = placed;
  if (messages.length === 0) return undefined;
  const end = starts[messages.length];
  // Positions are counted back from the end: off by the estimate's miss at this request, plus the calibration's
  // ±3% accuracy target over the tokens between the read and the end (a first request's inferred offset makes
  // its miss 0, not its positions exact).
  const spread = Math.abs(end - observedPrompt) + NOTE_AT * Math.max(0, end - read);
  const uncertaintyTokens = Math.round(Math.max(step > 1 ? step : 0, spread));
  const base = { tokens: read, uncertaintyTokens, unloggedTokens: Math.round(front) };
  if (read < front)
    return {
      ...base,
      messageIndex: messages[0].index,
      blockIndex: 0,
      region: 'unlogged-prefix',
      messageStart: 0,
    };
  // The last message starting at or before the read (binary search over the ascending starts).
  let lo = 0;
  let hi = messages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= read) lo = mid;
    else hi = mid - 1;
  }
  const m = messages[lo];
  return {
    ...base,
    messageIndex: m.index,
    blockIndex: blockAt(m, starts[lo], read, factor, meter),
    region: 'messages',
    messageStart: Math.round(starts[lo]),
  };
}
