// Causes of observed breaks on OpenAI's best-effort cache in session logs (issue 16), from what a Codex rollout
// records: each call's reasoning tokens (token_count `reasoning_output_tokens`) and every earlier cache read.
// `reasoning-dropped`: at a new user prompt the previous turn's reasoning left the prompt (it shrank by that much),
// so no read could pass the turn's first reasoning item. `older-entry`: the read equals to the token what an
// earlier request read, an older and shorter entry than the newest; the log cannot show the rest unchanged.

import { grouped } from '../lib/digits.ts';
import type { Message, Request, Thread } from '../model/transcript.ts';
import { observedPrompt } from '../tokens/calibration.ts';

const fmt = (n: number) => grouped(Math.round(n));
const sign = (n: number) => `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n))}`;
const lineOf = (r: Request) => (r.line !== undefined ? ` (line ${r.line})` : '');

/** The prompt's growth between two requests (observed) and what the appended messages account for (estimated,
 *  with the calibration's rule for reasoning: Codex's leaves the prompt at the next user prompt). */
export type Growth = {
  growth: number;
  appended: number;
  /** The estimate already leaves an earlier turn's reasoning out of the prompt (calibration per turn, Codex). */
  perTurn: boolean;
};

export type ReasoningDrop = {
  /** Where the turn's first reasoning item began: the observed prompt of the turn's first request. */
  at: number;
  /** Of the tokens lost, how many lie past that point (what the drop alone explains). */
  explains: number;
  evidence: string;
  detail: string;
};

/**
 * The previous turn's reasoning left the prompt at the new user prompt `prompt` (message index): the prompt is
 * smaller than the appended messages predict by about the reasoning tokens that turn's responses reported. The
 * turn runs from the user prompt before it (`prevPrompt`, −1: the session's start) to the new one.
 */
export function reasoningDrop(
  t: Thread,
  ref: Request,
  r: Request,
  newPrompt: Message,
  prevPrompt: number,
  g: Growth,
): ReasoningDrop | undefined {
  const turn = t.requests.filter(
    (q) => q.index < r.index && q.inputEnd > prevPrompt && q.inputEnd <= newPrompt.index && q.observed,
  );
  const reasoning = turn.reduce((n, q) => n + (q.reasoningOutput ?? 0), 0);
  // The first response that reported reasoning tokens: an item of 0 tokens may leave nothing to remove.
  const first = turn.find((q) => (q.reasoningOutput ?? 0) > 0);
  if (!first?.observed || !ref.observed || reasoning === 0) return undefined;
  // Two accounts of the growth: the previous turn's reasoning out of the prompt (the estimate), or kept (the
  // estimate plus the reasoning reported). The first must fit, and fit better: the reasoning a response reports
  // and what its item cost in the prompt differ by a summary and framing (≈15–30% in the rollouts).
  const withOut = g.perTurn ? g.appended : g.appended - reasoning;
  const withKept = withOut + reasoning;
  const out = Math.abs(g.growth - withOut);
  const kept = Math.abs(g.growth - withKept);
  const prompt = r.observed ? observedPrompt(r.observed) : 0;
  if (out >= kept || out > Math.max(250, 0.015 * prompt, 0.35 * reasoning)) return undefined;
  const at = observedPrompt(first.observed);
  const read = r.observed?.cacheRead ?? 0;
  // A read past the first reasoning item would contradict the drop (those tokens changed).
  if (read > at + 128) return undefined;
  const item = t.messages
    .slice(first.inputEnd, newPrompt.index)
    .find(
      (m) => m.role === 'assistant' && m.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking'),
    );
  const refPrompt = observedPrompt(ref.observed);
  const n = turn.length;
  const evidence = `the user prompt at line ${newPrompt.source.line} starts a new turn; the previous turn's ${n} response${n === 1 ? '' : 's'} (requests ${turn[0].index}–${turn[n - 1].index}) reported ${fmt(reasoning)} reasoning tokens (reasoning_output_tokens, observed); the prompt changed by ${sign(g.growth)} tokens (observed), where the appended messages account for ≈${sign(withOut)} with that reasoning out of the prompt and ≈${sign(withKept)} with it kept (estimated): it left the prompt, so no cache entry could match past the turn's first reasoning item that reported tokens${item ? ` (line ${item.source.line})` : ''}, which began at ${fmt(at)} tokens (request ${first.index}'s prompt${lineOf(first)}, observed)`;
  return {
    at,
    explains: Math.max(0, refPrompt - Math.max(at, read)),
    evidence,
    detail: `the previous turn's reasoning (${fmt(reasoning)} tokens, observed) left the prompt at the new user prompt (line ${newPrompt.source.line}): the cache could match only up to its first reasoning item at ${fmt(at)} tokens`,
  };
}

export type OlderEntry = { evidence: string[]; detail: string };

/**
 * `same-entry`: the read equals, to the token, what the previous request read, though the previous prompt was longer
 * and the log shows only items appended since: the provider served the entry it had served then and had stored no
 * longer prefix in between — a best-effort cache storing late (DeepSeek: "cache construction takes seconds"; the
 * mini-swe-agent run reads the same plateau for 2–5 requests at a time, then jumps). `provider` names it.
 */
export function sameEntry(t: Thread, ref: Request, r: Request, min: number, provider: string): OlderEntry | undefined {
  const read = r.observed?.cacheRead ?? 0;
  const before = ref.observed;
  if (read < min || !before || before.cacheRead !== read) return undefined;
  const refPrompt = observedPrompt(before);
  if (refPrompt <= read) return undefined;
  const first = t.requests.find((q) => q.index <= ref.index && q.observed?.cacheRead === read) ?? ref;
  const runs = ref.index - first.index + 1;
  return {
    evidence: [
      `the read, ${fmt(read)} tokens, is exactly what request ${ref.index}${lineOf(ref)} read${runs > 1 ? ` (and every request since request ${first.index}${lineOf(first)}: ${runs} in a row)` : ''} (observed), though request ${ref.index} sent ${fmt(refPrompt)}: the entry served is the one served then, and no longer prefix was stored in between`,
      `${provider} caches best effort and stores a prompt's prefix after serving it, not at once; the log shows the input as the previous one plus appended items, but it does not hold the exact request, so it cannot show the rest of the prefix unchanged`,
    ],
    detail: `the same cache entry as request ${ref.index}'s was served (${fmt(read)} tokens): no longer prefix stored since (best-effort cache)`,
  };
}

/**
 * The read equals, to the token, the read of an earlier request of the thread: the entry served was one that
 * already existed then — before the conversation sent anything when that request was its first, else while
 * requests since read more. `min`: the smallest cacheable prompt.
 */
export function olderEntry(t: Thread, ref: Request, r: Request, min: number): OlderEntry | undefined {
  const read = r.observed?.cacheRead ?? 0;
  if (read < min || !ref.observed) return undefined;
  const earlier = t.requests.filter((q) => q.index < r.index && q.observed);
  const same = earlier.filter((q) => q.observed?.cacheRead === read);
  const first = same[0];
  if (!first) return undefined;
  const isStart = earlier[0] === first;
  const most = earlier
    .filter((q) => q.index > first.index)
    .reduce<Request | undefined>(
      (a, q) => ((q.observed?.cacheRead ?? 0) > (a?.observed?.cacheRead ?? 0) ? q : a),
      undefined,
    );
  const longer = most?.observed && most.observed.cacheRead > read ? most : undefined;
  // Neither before the conversation nor shorter than what was read since: the same entry again, not an older one.
  if (!isStart && !longer) return undefined;
  const also =
    same.length > 1
      ? `, as did request${same.length > 2 ? 's' : ''} ${same
          .slice(1)
          .map((q) => q.index)
          .join(', ')}`
      : '';
  const refPrompt = observedPrompt(ref.observed);
  const sent = `request ${ref.index}${lineOf(ref)} sent ${fmt(refPrompt)}`;
  // How telling the match is: a stop at a random 128-token step would hit one of the earlier reads this often.
  const distinct = new Set(earlier.map((q) => q.observed?.cacheRead ?? 0).filter((x) => x >= min && x < refPrompt));
  const steps = Math.max(1, Math.floor(refPrompt / 128) - Math.floor(min / 128));
  const odds = `${distinct.size} distinct earlier read${distinct.size === 1 ? '' : 's'} among the ${fmt(steps)} 128-token steps from ${fmt(min)} to the previous prompt: a stop at a random step would match one ≈${Math.max(1, Math.round((100 * distinct.size) / steps))}% of the time (estimated)`;
  const evidence = [
    `the read, ${fmt(read)} tokens, is exactly what request ${first.index}${lineOf(first)} read${also} (observed; ${odds})${
      isStart
        ? `; request ${first.index} was the conversation's first, so that entry was cached before this conversation sent anything (a prefix it shares with earlier conversations): none of what this conversation sent since was served`
        : ''
    }`,
    `${longer?.observed ? `requests since read up to ${fmt(longer.observed.cacheRead)} tokens (request ${longer.index}${lineOf(longer)}, observed) and ${sent}: newer, longer entries existed` : `${sent}`}; OpenAI caches best effort (requests are routed by a hash of the prompt's start, and another machine may hold only older entries); the log does not hold the exact request, so it cannot show the rest of the prefix unchanged`,
  ];
  const why = isStart
    ? 'the entry cached before this conversation began'
    : `an entry older than the ${fmt(longer?.observed?.cacheRead ?? 0)} tokens read since`;
  return {
    evidence,
    detail: `an older cache entry was served: the read (${fmt(read)} tokens) is exactly request ${first.index}'s${lineOf(first)}, ${why}`,
  };
}
