// The provider's own word on a cache miss (SPEC §5.2): Anthropic writes `message.diagnostics.cache_miss_reason
// {type, cache_missed_input_tokens}` on a response whose lookup missed (real Claude Code 2.1.1xx logs), and
// `"diagnostics": null` on one that did not. Where it is reported, it is the observed cause ("reported by the
// provider"), Tierscope's own inference is kept beside it and checked against it (`inferred`, `agrees`); a break
// Tierscope sees on a response the provider says did not miss says so.

import { grouped } from '../lib/digits.ts';
import type { Request } from '../model/transcript.ts';
import type { BreakCause } from './break-causes.ts';

/** Tierscope's causes that say what each reported type says (a missing type agrees with none). */
const SAME: Record<string, RegExp> = {
  messages_changed:
    /^(history-rewritten|prefix-changed|agent-compaction|memory-file-edited|reasoning-dropped|sidechain)(@|$)/,
  system_changed: /^(system-changed|date-changed|memory-file-edited)(@|$)/,
  tools_changed: /^tools-changed$/,
  model_changed: /^model-changed$/,
  previous_message_not_found: /^(ttl-expired|older-entry|not-served|sidechain)$/,
  unavailable: /^(not-served|older-entry)$/,
};

/** Does Tierscope's cause say what the provider reported? */
function agreesWith(reported: string, inferred: string): boolean {
  return SAME[reported]?.test(inferred) ?? false;
}

type Break = { cause: BreakCause; detail: string; evidence?: string[]; inferred?: string; agrees?: boolean };

/** The break with the provider's reason as its cause when the response reports one. */
export function withReportedCause<B extends Break>(brk: B, r: Request): B {
  const miss = r.cacheMiss;
  const at = r.line !== undefined ? ` (line ${r.line})` : '';
  if (miss === null) {
    brk.evidence = [
      ...(brk.evidence ?? []),
      `the provider reported no cache miss for this response${at} ("diagnostics": null): the read fell short of the previous prompt without a lookup missing`,
    ];
    return brk;
  }
  if (!miss) return brk;
  const inferred = brk.cause;
  const agrees = agreesWith(miss.type, inferred);
  const tokens = miss.missedTokens !== undefined ? `, ${grouped(miss.missedTokens)} input tokens missed` : '';
  brk.evidence = [
    `reported by the provider${at}: message.diagnostics.cache_miss_reason ${miss.type}${tokens}`,
    `Tierscope's own inference: ${inferred} — ${agrees ? 'agrees with' : 'differs from'} the provider's reason${brk.detail ? ` (${brk.detail})` : ''}`,
    ...(brk.evidence ?? []),
  ];
  brk.cause = `reported:${miss.type}`;
  brk.detail = `reported by the provider: ${miss.type.replaceAll('_', ' ')}${tokens}`;
  brk.inferred = inferred;
  brk.agrees = agrees;
  return brk;
}
