// Incremental pairing validation of a recorded input that extends the previous one: pairing rules are
// local (a message and its neighbours), so only a window around the appended messages is checked. A
// window starts on an assistant message where it can (else it may show artifacts at its very start: a result
// whose use lies before it), and only violations at or after the last old message count; when there is one (or a tool_use id repeats — the one global
// rule), the full input is validated so the error carries the provider's real messages.N index.
import { type PairingContext, type PairingViolation, validatePairing } from '../analyses/pairing.ts';
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
