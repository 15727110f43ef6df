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
import type { ThreadPlans } from './types.ts';

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

  /** Start over with a whole input (a reset). Returns whether any id was a repeat. */
  reset(messages: readonly Message[], reported: (id: string) => boolean): boolean {
    this.uses = new Set();
    this.results = new Set();
    this.pending = new Set();
    return this.append(messages, reported);
  }

  /** Take in what request `k`'s plan puts into the working history (appended, or a reset's whole input). */
  take(plans: ThreadPlans, k: number, reported: (id: string) => boolean): boolean {
    const plan = plans.at(k);
    const messages = plan.view.array.slice(plan.from, plan.view.end);
    return plan.delta.kind === 'reset' ? this.reset(messages, reported) : this.append(messages, reported);
  }

  /** Add appended messages; a repeat whose duplicate-id is not reported yet becomes pending. Returns whether any
   *  id was a repeat. */
  append(messages: readonly Message[], reported: (id: string) => boolean): boolean {
    let repeated = false;
    for (const m of messages)
      for (const b of m.blocks) {
        const [seen, id] =
          b.type === 'tool_use' ? [this.uses, b.id] : b.type === 'tool_result' ? [this.results, b.toolUseId] : [];
        if (!seen || id === undefined) continue;
        if (seen.has(id)) {
          repeated = true;
          if (!reported(id)) this.pending.add(id);
        }
        seen.add(id);
      }
    return repeated;
  }

  copy(): InputRepeats {
    const c = new InputRepeats();
    c.uses = new Set(this.uses);
    c.results = new Set(this.results);
    c.pending = new Set(this.pending);
    return c;
  }

  /** Whether every repeated id of the input has its duplicate-id reported (drops the ones that now have). */
  settled(reported: (id: string) => boolean): boolean {
    for (const id of this.pending) if (reported(id)) this.pending.delete(id);
    return this.pending.size === 0;
  }
}

/** How far a thread plan's input ids were scanned for a repeat (scanRepeats): `at` is the first request that repeats
 *  one (`upTo` when none of [0, upTo) does, and then `ids` holds theirs). */
export type RepeatScan = { at: number; upTo: number; ids: InputRepeats | undefined };

/**
 * The first request whose recorded input repeats a tool id (plans.length when none does), going on from `done` (an
 * earlier scan of the same first requests). Before it nothing is ever pending, whatever was reported, so the replay
 * need not track the input's ids (a set of every id of the thread, updated per request) until it, and then starts
 * from `idsBefore`. Depends on the recorded input alone: found once per thread plan (PlanColumns).
 */
export function scanRepeats(plans: ThreadPlans, done?: RepeatScan): RepeatScan {
  if (done && (done.at < done.upTo || done.upTo === plans.length)) return done;
  const ids = done?.ids ?? new InputRepeats();
  for (let k = done?.upTo ?? 0; k < plans.length; k++)
    if (ids.take(plans, k, NEVER)) return { at: k, upTo: plans.length, ids: undefined };
  return { at: plans.length, upTo: plans.length, ids };
}

/** A scan that found no repeat, for a grown read to go on from (its ids copied: the earlier read keeps its own). */
export function carryScan(s: RepeatScan): RepeatScan {
  return { ...s, ids: s.ids?.copy() };
}

/** The ids of requests [0, k) before the first repeat (nothing pending). */
export function idsBefore(plans: ThreadPlans, k: number): InputRepeats {
  const ids = new InputRepeats();
  for (let j = 0; j < k; j++) ids.take(plans, j, NEVER);
  return ids;
}

const NEVER = () => true;

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
