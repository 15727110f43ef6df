// Stage 5 — summarize (SPEC §4.5), only while still over the trigger: the oldest turns after the head are
// replaced by one anchored summary (Session Intent, Files Modified, Files Read, Decisions, Errors,
// Current State, Next Steps) built from an artifact index plus the summarizer; a previous summary is
// merged, not regenerated. The cut keeps tool pairs and batches whole, and a summary must free tokens.
// After `breakerFailures` consecutive failures, no summarisation for `breakerCooldown` requests.
import { headRunes, runeCount } from '../../lib/runes.ts';
import type { Message } from '../../model/transcript.ts';
import { blockText } from '../../tokens/block-text.ts';
import {
  type ArtifactIndex,
  emptyIndex,
  indexMessage,
  mergeIndex,
  renderSections,
  sectionRunes,
} from '../artifacts.ts';
import { landingTokens } from '../config.ts';
import { CutCursor, headEnd, isPipelineSummary, SUMMARY_UUID, tailStart } from '../cuts.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { SummaryOutcome } from '../summarizer.ts';
import { summaryHeader } from '../summary-drafts.ts';
import type { Working } from '../working.ts';

export type SummarizeState = {
  index: ArtifactIndex;
  failures: number;
  /** No summarisation while request < breakerUntil. */
  breakerUntil: number;
  /** By thread message index (Message.index): the request that folded that message into a summary (a
   *  plain array indexed by position: no hashing of tool ids while folding thousands of messages). */
  folded: number[];
  /** Requests where the summarizer failed (for the timeline), with the error. */
  failed: { request: number; error: string }[];
  count: number;
};

/** The transcript the summarizer reads: every block clipped to 450 runes, the whole to 375,000 (rune-safe). */
function render(messages: readonly Message[]): string {
  const text = messages
    .map((m) => `[${m.role}]: ${m.blocks.map((b) => headRunes(blockText(b), 450)).join('\n')}`)
    .join('\n\n');
  return headRunes(text, 375_000);
}

/** One candidate cut: messages [start, cut) become one summary. */
type Plan = {
  cut: number;
  fresh: Message[];
  /** First and last request of `fresh`. */
  span: Span;
  previous: Message | undefined;
  merged: ArtifactIndex;
  removed: number;
};

/** First and last request of the messages a summary folds. */
type Span = { first: number; last: number };

function widen(span: Span, r: number): void {
  if (r < span.first) span.first = r;
  if (r > span.last) span.last = r;
}

/** A summary's parts — its head (header and prose) and the merged index its sections render — and its tokens
 *  (counted from its parts: summary-drafts.ts). */
function summaryOf(n: number, span: Span, ctx: StageContext, prose: string, merged: ArtifactIndex) {
  const drafts = ctx.memo.drafts;
  const head = `${summaryHeader(n, span.first, span.last, ctx.summarizer.id)}\n${prose.trim() ? `${prose.trim()}\n` : ''}`;
  return {
    head,
    merged,
    tokens:
      drafts.headTokens(ctx.meter, n, span.first, span.last, ctx.summarizer.id, prose.trim()) +
      drafts.sectionTokens(ctx.meter, merged),
  };
}

/**
 * The cut to summarise up to: the first valid cut whose summary (sections alone) brings the estimate below the
 * landing line, else (or with `furthest`) the last one — and only if that summary is smaller than what it
 * replaces: a summary must free tokens. Drafts are rendered only where landing is possible at all, so a long
 * history costs one pass. The previous summary's index is merged only while that summary is still in the
 * history (an agent compaction drops it).
 */
function plan(work: Working, state: SummarizeState, ctx: StageContext, start: number, furthest: boolean) {
  const cuts = new CutCursor(work, start + 1, tailStart(work, ctx.config.hardcap.minRecentTurns));
  const previous = isPipelineSummary(work.at(start)) ? work.at(start) : undefined;
  const base = previous ? state.index : emptyIndex();
  const memo = ctx.memo.drafts;
  const baseId = previous ? memo.keyOf(state.index) : '';
  const drafts = memo.bucket(ctx.thread, `${ctx.summarizer.id}|${state.count + 1}|${baseId}`);
  // The fresh messages so far, by identity (summary-drafts.ts).
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const landingLine = landingTokens(ctx.config);
  const index = emptyIndex();
  const fresh: Message[] = [];
  const span: Span = { first: Number.POSITIVE_INFINITY, last: 0 };
  let at = start;
  let removed = 0;
  let following = -1;
  for (let cut = cuts.next(); cut >= 0; cut = following) {
    following = cuts.next();
    for (; at < cut; at++) {
      removed += work.tokensAt(at);
      const m = work.at(at);
      if (isPipelineSummary(m)) continue;
      fresh.push(m);
      const req = ctx.requestOf(m.index);
      widen(span, req);
      // One lookup per message: its contribution to the index, which also numbers it by identity.
      const c = ctx.memo.contributions.of(m);
      h1 = Math.imul(h1 ^ c.id, 2654435761);
      h2 = Math.imul(h2 ^ c.id, 1597334677);
      if (m.compaction !== 'summary') indexMessage(index, ctx.memo.contributions.artifacts(c, req));
    }
    const isLast = following < 0;
    // The estimate once the cut is folded (before the summary's own tokens).
    const rest = ctx.estimate() - ctx.factor * removed;
    // A summary costs tokens too: no cut lands before the history after it alone does.
    if (!isLast && (furthest || rest >= landingLine)) continue;
    if (fresh.length === 0) continue;
    const a = h1 >>> 0;
    const b = h2 >>> 0;
    const key = { h1: a, h2: b, n: fresh.length, first: span.first, last: span.last };
    let found = memo.find(drafts, key);
    if (found === undefined) {
      const n = state.count + 1;
      const tokens = memo.draft(ctx.meter, n, span.first, span.last, ctx.summarizer.id, mergeIndex(base, index));
      // One literal (a spread of `key` with a field added keeps that field outside the object: drafts are kept for
      // three replays, thousands a replay at 20,000 requests).
      found = { h1: a, h2: b, n: fresh.length, first: span.first, last: span.last, tokens };
      memo.keep(drafts, found);
    }
    const draft = found.tokens;
    if (draft >= removed) continue;
    if (isLast || rest + ctx.factor * draft < landingLine) {
      const merged = mergeIndex(base, index);
      // What the merged index is made of: the base's key and the folded messages (summary-drafts.ts).
      memo.setKey(merged, `${baseId}+${fresh.length}.${a}.${b}`);
      const p: Plan = { cut, fresh: fresh.slice(), span: { ...span }, previous, merged, removed };
      return p;
    }
  }
  return undefined;
}

function summarize(p: Plan, ctx: StageContext): SummaryOutcome {
  return ctx.summarizer.summarizeTurns({
    // Only a model summarizer reads the rendered turns; the local ones work from the artifact index.
    transcript: ctx.summarizer.id === 'extractive' || ctx.summarizer.id === 'fail' ? '' : render(p.fresh),
    artifacts: p.merged,
    hasPrevious: p.previous !== undefined,
    // Rendered only for a summarizer that reads it (a pipeline summary's text is made on demand: summaryMessage).
    get previous() {
      return p.previous ? blockText(p.previous.blocks[0]) : undefined;
    },
    // Read only by a summarizer that uses it: finding it scans the history back to the last prompt.
    get task() {
      return ctx.task();
    },
  });
}

/** A pipeline summary message holding `text`, or text made by `render` each time it is read: a run makes hundreds
 *  of summaries of KBs each, and few are read whole after the run (the compaction and event views, on demand), so
 *  a run keeps what renders them (their merged indexes, whose items the memos keep) instead of their texts. */
export function summaryMessage(text: string | (() => string)): Message {
  return {
    index: -1,
    role: 'user',
    blocks: [
      typeof text === 'string'
        ? { type: 'text', text }
        : {
            type: 'text',
            get text() {
              return text();
            },
          },
    ],
    source: { line: 0, uuid: SUMMARY_UUID },
    compaction: 'summary',
    meta: true,
  };
}

export const summarizeStage: PipelineStage<SummarizeState> = {
  id: 'summarize',
  title: 'Summarize',
  description:
    'Over the trigger, the oldest turns become one anchored summary (intent, files, decisions, errors, state, next steps) so the prompt lands below the landing line.',
  initial: () => ({ index: emptyIndex(), failures: 0, breakerUntil: 0, folded: [], failed: [], count: 0 }),
  run(work, state, ctx) {
    const cfg = ctx.config;
    if (!cfg.summarize.enabled || ctx.request < state.breakerUntil) return state;
    // Summaries aim below the landing line: when a preset's trigger sits under it (claude-code on a small
    // window: W − 33K < 0.3·W) an estimate already below landing has nothing to aim for.
    if (ctx.shut('summarize')) return state;
    const h = headEnd(work);
    // Merge into an existing pipeline summary that sits right at the end of the head.
    const start = h > 0 && isPipelineSummary(work.at(h - 1)) ? h - 1 : h;
    if (start >= work.length) return state;
    let chosen = plan(work, state, ctx, start, false);
    if (!chosen) return state;
    let out = summarize(chosen, ctx);
    if (!out.ok) {
      state.failures++;
      state.failed.push({ request: ctx.request, error: out.error });
      if (state.failures >= cfg.summarize.breakerFailures) {
        state.breakerUntil = ctx.request + 1 + cfg.summarize.breakerCooldown;
        state.failures = 0;
      }
      return state;
    }
    state.failures = 0;
    let made = summaryOf(state.count + 1, chosen.span, ctx, out.text, chosen.merged);
    // The prose tipped it back over the landing line: fold as far as allowed, so a second pass (a retry of
    // the same input) finds nothing left to do.
    const landed = ctx.estimate() + ctx.factor * (made.tokens - chosen.removed) < landingTokens(cfg);
    const far = landed ? undefined : plan(work, state, ctx, start, true);
    if (far && far.cut > chosen.cut) {
      const again = summarize(far, ctx);
      if (again.ok) {
        chosen = far;
        out = again;
        made = summaryOf(state.count + 1, chosen.span, ctx, out.text, chosen.merged);
      }
    }
    const { cut, fresh, removed: tokensBefore } = chosen;
    const { head, merged, tokens: tokensAfter } = made;
    if (tokensAfter >= tokensBefore) return state; // the prose made it no smaller than what it replaces
    const summary = summaryMessage(() => `${head}${renderSections(merged)}`);
    ctx.meter.knownBlock(summary.blocks[0], tokensAfter);
    ctx.memo.summarySections.set(summary.blocks[0], merged);
    const runes = runeCount(head) + sectionRunes(merged);
    ctx.memo.runes.known(summary.blocks[0], runes);
    state.index = chosen.merged;
    state.count++;
    for (const m of fresh) if (m.index >= 0 && state.folded[m.index] === undefined) state.folded[m.index] = ctx.request;
    const charsBefore = work.runesBetween(start, cut);
    const kept = work.length - cut;
    work.splice(start, cut - start, [summary]);
    ctx.emit({
      action: 'summarize',
      messageIndex: -1,
      position: start,
      blockIndex: 0,
      charsBefore,
      charsAfter: runes,
      tokensBefore,
      tokensAfter,
      detail: `summarised ${fresh.length} messages (freed ${tokensBefore - tokensAfter} tokens), summary ${tokensAfter} tokens, ${kept} recent messages kept`,
      after: summary.blocks[0],
    });
    return state;
  },
};
