// Incremental pairing validation of a recorded input that extends the previous one: pairing rules are
// local (a message and its neighbours), so only a window around the appended messages is checked. A
// window starts on an assistant message where it can (else it may show artifacts at its very start: a result
// whose use lies before it), and only violations at or after the last old message count; when there is one (or a tool_use id repeats — the one global
// rule), the full input is validated so the error carries the provider's real messages.N index. A repeat the
// replay has reported already (local servers reuse `call_0` in every round) is not news: InputRepeats tracks
// the input's ids across requests so such a request stays a window check (linear, not quadratic, in rounds).

import type { Message } from '../model/transcript.ts';
import { type PairingContext, type PairingViolation, thinkingModified, validatePairing } from '../pairing/validate.ts';
import type { InputView } from './inputs.ts';

const CONTEXT = 3;

/** Violations the appended messages (positions ≥ from, relative to view.start) cause or reveal. `reported`:
 *  the caller has reported this violation already (its repeat changes nothing), so the window may ignore it. */
export function validateAppended(
  view: InputView,
  from: number,
  ctx: PairingContext,
  forceFull: boolean,
  reported?: (v: PairingViolation) => boolean,
): PairingViolation[] {
  const keepFrom = Math.max(0, from - 1);
  if (!forceFull) {
    // Start the window on the nearest earlier assistant message (a pair's first half), so a valid
    // append passes the validator's fast path; never closer than CONTEXT messages before `from`.
    let windowStart = Math.max(0, from - CONTEXT);
    for (let p = windowStart; p >= Math.max(0, windowStart - 16); p--) {
      if (view.array[view.start + p]?.role === 'assistant') {
        windowStart = p;
        break;
      }
    }
    const window = view.array.slice(view.start + windowStart, view.end);
    const local = validatePairing(window, ctx).filter(
      (v) => v.messageIndex + windowStart >= keepFrom && !reported?.(v),
    );
    if (local.length === 0) return [];
  }
  const full = view.array.slice(view.start, view.end);
  return validatePairing(full, ctx).filter((v) => v.messageIndex >= keepFrom || v.rule === 'duplicate-id');
}

/**
 * The tool ids of a recorded input as it grows request by request (reset with it), and the repeated ids
 * (a tool_use id used again, a result id answered again: a superset of what any provider flags as
 * duplicate-id) whose duplicate-id violation the replay has not reported yet. While there is none, a
 * duplicate-id anywhere in the input is one the replay reported before, so an appended repeat needs no
 * full check: the window, ignoring reported duplicates, decides (validateAppended's `reported`).
 */
export class InputRepeats {
  private uses = new Set<string>();
  private results = new Set<string>();
  private pending = new Set<string>();

  /** Start over with a whole input (a reset). */
  reset(messages: readonly Message[], reported: (id: string) => boolean): void {
    this.uses = new Set();
    this.results = new Set();
    this.pending = new Set();
    this.append(messages, reported);
  }

  /** Add appended messages; a repeat whose duplicate-id is not reported yet becomes pending. */
  append(messages: readonly Message[], reported: (id: string) => boolean): void {
    for (const m of messages)
      for (const b of m.blocks) {
        const [seen, id] =
          b.type === 'tool_use' ? [this.uses, b.id] : b.type === 'tool_result' ? [this.results, b.toolUseId] : [];
        if (!seen || id === undefined) continue;
        if (seen.has(id) && !reported(id)) this.pending.add(id);
        seen.add(id);
      }
  }

  /** Whether every repeated id of the input has its duplicate-id reported (drops the ones that now have). */
  settled(reported: (id: string) => boolean): boolean {
    for (const id of this.pending) if (reported(id)) this.pending.delete(id);
    return this.pending.size === 0;
  }
}

/**
 * Whether one splice (messages [at, at + inserted) put where a range was removed) may have introduced a
 * pairing violation. False when a window around the junction validates clean and the latest thinking is
 * unchanged: every message outside the window keeps its neighbours, so a violation there was in the stage's
 * input too — and the replay reports only violations a stage introduced. True sends the caller to the full
 * check. The window runs from an assistant message before the junction to one after it (whole turns).
 */
export function spliceMayBreak(
  messages: readonly Message[],
  at: number,
  inserted: number,
  ctx: PairingContext,
): boolean {
  if (thinkingModified(messages, ctx)) return true;
  let from = Math.max(0, at - CONTEXT);
  for (let p = from; p >= Math.max(0, from - 16); p--) {
    if (messages[p]?.role === 'assistant') {
      from = p;
      break;
    }
  }
  let to = Math.min(messages.length, at + inserted + CONTEXT);
  for (let p = to; p <= Math.min(messages.length, to + 16); p++) {
    if (p === messages.length || messages[p].role === 'assistant') {
      to = p;
      break;
    }
  }
  return validatePairing(messages.slice(from, to), { ...ctx, before: undefined }).length > 0;
}
