// Tool_use/tool_result pairing validator (SPEC §5.1). Lays a normalized request out the way a provider
// would receive it (providers/wire.ts), checks that provider's rules (providers/<provider>.ts) and returns
// violations carrying the provider's exact error text and the real wire index. It runs on every request's
// input and after every pipeline stage, so a fast path answers [] for the common valid shape without
// allocating a layout; the full check runs only when that fast path sees something unusual.
import type { Message, Role } from '../model/transcript.ts';
import { anthropicText, checkAnthropic } from './providers/anthropic.ts';
import { checkBedrock } from './providers/bedrock.ts';
import { type Draft, isEmptyContent, isSyntheticResult, type ProviderCheck, serverResult } from './providers/common.ts';
import { checkGemini } from './providers/gemini.ts';
import { checkOpenaiChat } from './providers/openai-chat.ts';
import { checkOpenaiResponses } from './providers/openai-responses.ts';
import { latestThinkingChange } from './providers/thinking.ts';
import { layoutWire, type WireUnit, wireIndexOf, wireLabel } from './providers/wire.ts';
import type { PairingContext, PairingViolation, Provider } from './types.ts';

export type { PairingContext, PairingViolation, Provider } from './types.ts';
export { PROVIDERS } from './types.ts';

const CHECKS: Record<Provider, ProviderCheck> = {
  anthropic: checkAnthropic,
  'openai-chat': checkOpenaiChat,
  'openai-responses': checkOpenaiResponses,
  gemini: checkGemini,
  bedrock: checkBedrock,
};

/** Whether the provider's rules flag a repeated id (duplicate-id); Gemini matches calls by name and order. */
export const FLAGS_DUPLICATES: Readonly<Record<Provider, boolean>> = {
  anthropic: true,
  'openai-chat': true,
  'openai-responses': true,
  gemini: false,
  bedrock: true,
};

/** Validate one request's messages for one provider; [] when the provider would accept it unflagged.
 *  Pure and deterministic; violations are ordered by message, errors first, then block. */
export function validatePairing(messages: readonly Message[], ctx: PairingContext): PairingViolation[] {
  const out = looksValid(messages, ctx.provider, ctx.uniqueUses === true) ? [] : fullCheck(messages, ctx);
  checkThinking(messages, ctx, out);
  return sortViolations(out);
}

/** validatePairing without the fast path (tests check that both paths agree). */
export function validatePairingFull(messages: readonly Message[], ctx: PairingContext): PairingViolation[] {
  const out = fullCheck(messages, ctx);
  checkThinking(messages, ctx, out);
  return sortViolations(out);
}

/** Violations of `after` that `before` did not already have (same rule, severity and tool id; indices
 *  shift between stages, so they are not compared): what a stage introduced and is blamed for. */
export function newViolations(
  before: readonly PairingViolation[],
  after: readonly PairingViolation[],
): PairingViolation[] {
  const key = (v: PairingViolation) => `${v.rule}\u0000${v.severity}\u0000${v.toolUseId ?? ''}`;
  const counts = new Map<string, number>();
  for (const v of before) counts.set(key(v), (counts.get(key(v)) ?? 0) + 1);
  return after.filter((v) => {
    const c = counts.get(key(v)) ?? 0;
    if (c > 0) counts.set(key(v), c - 1);
    return c === 0;
  });
}

function fullCheck(messages: readonly Message[], ctx: PairingContext): PairingViolation[] {
  const out: PairingViolation[] = [];
  const { thread, request, stage, provider } = ctx;
  const report = (d: Draft) => {
    out.push({ thread, request, stage, provider, ...d });
  };
  const units = layoutWire(messages, provider);
  CHECKS[provider](messages, units, report);
  sharedWarnings(messages, units, wireLabel(provider), report);
  return out;
}

const MAX_FAST_BATCH = 64;

/** True only when no provider rule and no shared warning can fire: every assistant tool_use batch is
 *  answered, exactly, by the leading results of the next message, a user one, with nothing in between
 *  (no system or compaction message), no other results anywhere, unique ids, no synthetic results, and
 *  the provider's extra rules hold (Gemini turn order and ending, Bedrock mixed turns and empty errors). */
function looksValid(messages: readonly Message[], provider: Provider, uniqueUses: boolean): boolean {
  const gemini = provider === 'gemini';
  const bedrock = provider === 'bedrock';
  const seen = new Set<string>();
  const pend: string[] = [];
  const srv: string[] = [];
  let pending = 0;
  let last: Role | undefined; // role of the previous non-system message
  for (const m of messages) {
    if (pending > 0 && (m.compaction !== undefined || m.role !== 'user')) return false;
    const blocks = m.blocks;
    if (m.role === 'system') {
      for (const b of blocks) if (b.type !== 'text' && b.type !== 'image') return false;
      continue;
    }
    if (m.role === 'assistant') {
      let servers = 0;
      for (const b of blocks) {
        if (b.type === 'tool_use') {
          if (pending === MAX_FAST_BATCH) return false;
          if (!uniqueUses) {
            if (seen.has(b.id)) return false;
            seen.add(b.id);
          }
          pend[pending++] = b.id;
        } else if (b.type === 'server_tool_use') srv[servers++] = b.id;
        else if (b.type === 'tool_result') return false;
        else if (b.type === 'other') {
          const r = serverResult(b); // must follow its server_tool_use in this message
          if (r && !srv.slice(0, servers).includes(r.id)) return false;
        }
      }
      if (gemini && pending > 0 && last !== 'user') return false;
      last = 'assistant';
      continue;
    }
    let j = 0;
    if (pending > 0) {
      if (blocks.length < pending || (bedrock && blocks.length > pending)) return false;
      for (; j < pending; j++) {
        const b = blocks[j];
        if (b.type !== 'tool_result' || isSyntheticResult(m, b) || (bedrock && b.isError && isEmptyContent(b.content)))
          return false;
        let k = j; // find the id among the still-unanswered ones and swap it into place
        while (k < pending && pend[k] !== b.toolUseId) k++;
        if (k === pending) return false;
        pend[k] = pend[j];
      }
      pending = 0;
    }
    for (; j < blocks.length; j++) {
      const t = blocks[j].type;
      if (t === 'tool_result' || t === 'tool_use' || t === 'server_tool_use') return false;
    }
    last = 'user';
  }
  return pending === 0 && !(gemini && last === 'assistant');
}

/** Provider-independent warnings (SPEC §5.1 "It also flags"): synthetic results, a summary or boundary
 *  between a use and its result, a parallel batch whose results are split or partly missing. Error,
 *  rejected and synthetic results all count as answers. */
function sharedWarnings(
  messages: readonly Message[],
  units: readonly WireUnit[],
  label: string,
  report: (v: Draft) => void,
): void {
  const n = messages.length;
  const resultsAt = new Map<string, number[]>(); // id → indices of the messages holding a result for it
  for (let i = 0; i < n; i++) {
    const m = messages[i];
    for (let j = 0; j < m.blocks.length; j++) {
      const b = m.blocks[j];
      if (b.type !== 'tool_result') continue;
      const list = resultsAt.get(b.toolUseId);
      if (list) list.push(i);
      else resultsAt.set(b.toolUseId, [i]);
      if (isSyntheticResult(m, b)) {
        const w = wireIndexOf(units, i, j);
        report({
          rule: 'synthetic-result',
          severity: 'warning',
          messageIndex: i,
          blockIndex: j,
          wireIndex: w,
          toolUseId: b.toolUseId,
          error: `${label}.${w}: the result for ${b.toolUseId} was written by the harness, not the tool; it counts as an answer, but check that ${b.toolUseId} still exists after compaction.`,
        });
      }
    }
  }
  const nextCompaction = new Int32Array(n + 1);
  nextCompaction[n] = n;
  for (let i = n - 1; i >= 0; i--) nextCompaction[i] = messages[i].compaction ? i : nextCompaction[i + 1];
  for (let a = 0; a < n; a++) {
    const m = messages[a];
    if (m.role !== 'assistant') continue;
    let uses = 0;
    const places: number[] = [];
    let odd: string | undefined; // first id missing, or answered outside the first place
    for (const b of m.blocks) {
      if (b.type !== 'tool_use') continue;
      uses++;
      const r = firstAfter(resultsAt.get(b.id), a);
      if (r === undefined) {
        odd ??= b.id;
        continue;
      }
      if (places.length > 0 && places[0] !== r) odd ??= b.id;
      if (!places.includes(r)) places.push(r);
      const c = nextCompaction[a + 1];
      if (c < r) {
        const w = wireIndexOf(units, c);
        report({
          rule: 'summary-between-pair',
          severity: 'warning',
          messageIndex: c,
          wireIndex: w,
          toolUseId: b.id,
          error: `${label}.${w}: a compaction ${messages[c].compaction} message sits between tool call ${b.id} and its result.`,
        });
      }
    }
    if (uses < 2 || places.length === 0 || odd === undefined) continue;
    const missing = m.blocks.filter(
      (b) => b.type === 'tool_use' && firstAfter(resultsAt.get(b.id), a) === undefined,
    ).length;
    const w = wireIndexOf(units, a);
    report({
      rule: 'split-batch',
      severity: 'warning',
      messageIndex: a,
      wireIndex: w,
      toolUseId: odd,
      error: `${label}.${w}: the ${uses} parallel tool calls of this message are answered in ${places.length} message(s)${missing > 0 ? `, ${missing} not at all` : ''}; a batch should be kept or dropped as one unit.`,
    });
  }
}

/** The first entry of ascending `list` greater than `a` (binary search: an id reused by thousands of calls,
 *  as local OpenAI-compatible servers do with `call_0`, must not make every lookup a scan). */
function firstAfter(list: readonly number[] | undefined, a: number): number | undefined {
  if (list === undefined) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : undefined;
}

type ThinkingSeverity = 'error' | 'warning';
// Anthropic (and Claude on Bedrock) reject it; Gemini thought signatures and Responses reasoning items
// must be passed back too (from memory, no verified text); chat does not send reasoning at all.
const THINKING: Partial<Record<Provider, ThinkingSeverity>> = {
  anthropic: 'error',
  bedrock: 'error',
  gemini: 'warning',
  'openai-responses': 'warning',
};

/** Whether the thinking of the latest assistant message differs from the stage's input (`ctx.before`) for a
 *  provider that checks it (validatePairing then reports thinking-modified). */
export function thinkingModified(messages: readonly Message[], ctx: PairingContext): boolean {
  return (
    THINKING[ctx.provider] !== undefined && ctx.before !== undefined && !!latestThinkingChange(messages, ctx.before)
  );
}

/** Thinking blocks of the latest assistant message must be byte-identical to the stage's input. */
function checkThinking(messages: readonly Message[], ctx: PairingContext, out: PairingViolation[]): void {
  const severity = THINKING[ctx.provider];
  if (!ctx.before || !severity) return;
  const change = latestThinkingChange(messages, ctx.before);
  if (!change) return;
  const w = wireIndexOf(layoutWire(messages, ctx.provider), change.message, change.block);
  const v: PairingViolation = {
    thread: ctx.thread,
    request: ctx.request,
    stage: ctx.stage,
    provider: ctx.provider,
    rule: 'thinking-modified',
    severity,
    messageIndex: change.message,
    wireIndex: w,
    error:
      severity === 'error'
        ? anthropicText.thinking
        : `${wireLabel(ctx.provider)}.${w}: reasoning of the latest assistant turn was modified; signed reasoning must be passed back unchanged (flagged by Tierscope).`,
  };
  if (change.block !== undefined) v.blockIndex = change.block;
  out.push(v);
}

function sortViolations(out: PairingViolation[]): PairingViolation[] {
  const rank = (v: PairingViolation) => (v.severity === 'error' ? 0 : 1);
  if (out.length > 1)
    out.sort(
      (x, y) => x.messageIndex - y.messageIndex || rank(x) - rank(y) || (x.blockIndex ?? -1) - (y.blockIndex ?? -1),
    );
  return out;
}
