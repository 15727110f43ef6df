// Incremental pairing validation of a recorded input that extends the previous one: pairing rules are
// local (a message and its neighbours), so only a window around the appended messages is checked. A
// window starts on an assistant message where it can (else it may show artifacts at its very start: a result
// whose use lies before it), and only violations at or after the last old message count; when there is one (or a tool_use id repeats — the one global
// rule), the full input is validated so the error carries the provider's real messages.N index.

import type { Message } from '../model/transcript.ts';
import { type PairingContext, type PairingViolation, thinkingModified, validatePairing } from '../pairing/validate.ts';
import type { InputView } from './inputs.ts';

const CONTEXT = 3;

/** Violations the appended messages (positions ≥ from, relative to view.start) cause or reveal. */
export function validateAppended(
  view: InputView,
  from: number,
  ctx: PairingContext,
  forceFull: boolean,
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
    const local = validatePairing(window, ctx).filter((v) => v.messageIndex + windowStart >= keepFrom);
    if (local.length === 0) return [];
  }
  const full = view.array.slice(view.start, view.end);
  return validatePairing(full, ctx).filter((v) => v.messageIndex >= keepFrom || v.rule === 'duplicate-id');
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
