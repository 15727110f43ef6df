// Stage 5 — summarize (SPEC §4.5), only while still over the trigger: the oldest turns after the head are
// replaced by one anchored summary (Session Intent, Files Modified, Files Read, Decisions, Errors,
// Current State, Next Steps) built from an artifact index plus the summarizer; a previous summary is
// merged, not regenerated. The cut keeps tool pairs and batches whole. After `breakerFailures`
// consecutive failures, no summarisation for `breakerCooldown` requests.
import { runeCount } from '../../lib/runes.ts';
import type { Message } from '../../model/transcript.ts';
import { blockText } from '../../tokens/block-text.ts';
import { type ArtifactIndex, emptyIndex, indexMessages, mergeIndex, renderSections } from '../artifacts.ts';
import { landingTokens, triggerTokens } from '../config.ts';
import { headEnd, isPipelineSummary, SUMMARY_UUID, tailStart, validCuts } from '../cuts.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';

export type SummarizeState = {
  index: ArtifactIndex;
  failures: number;
  /** No summarisation while request < breakerUntil. */
  breakerUntil: number;
  /** tool_use ids whose results were folded into a summary. */
  folded: Set<string>;
  /** Requests where the summarizer failed (for the timeline), with the error. */
  failed: { request: number; error: string }[];
  count: number;
};

function render(messages: readonly Message[]): string {
  return messages
    .map((m) => `[${m.role}]: ${m.blocks.map((b) => blockText(b).slice(0, 450)).join('\n')}`)
    .join('\n\n')
    .slice(0, 375_000);
}

function chooseCut(work: Working, start: number, ctx: StageContext, summaryGuess: number): number | undefined {
  const maxCut = tailStart(work, ctx.config.hardcap.minRecentTurns);
  const cuts = validCuts(work, start + 1, maxCut);
  if (cuts.length === 0) return undefined;
  const landing = landingTokens(ctx.config);
  const base = ctx.prefixTokens + work.total + summaryGuess;
  let removed = 0;
  let at = start;
  for (const c of cuts) {
    removed += work.tokensBetween(at, c);
    at = c;
    if (ctx.factor * (base - removed) < landing) return c;
  }
  return cuts[cuts.length - 1];
}

export const summarizeStage: PipelineStage<SummarizeState> = {
  id: 'summarize',
  title: 'Summarize',
  description:
    'Over the trigger, the oldest turns become one anchored summary (intent, files, decisions, errors, state, next steps) so the prompt lands below the landing line.',
  initial: () => ({ index: emptyIndex(), failures: 0, breakerUntil: 0, folded: new Set(), failed: [], count: 0 }),
  run(work, state, ctx) {
    const cfg = ctx.config;
    if (!cfg.summarize.enabled || ctx.request < state.breakerUntil) return state;
    if (ctx.estimate() < triggerTokens(cfg)) return state;
    const h = headEnd(work);
    // Merge into an existing pipeline summary that sits right at the end of the head.
    const start = h > 0 && isPipelineSummary(work.at(h - 1)) ? h - 1 : h;
    const cut = chooseCut(work, start, ctx, 400);
    if (cut === undefined || cut <= start) return state;
    const replaced = work.messages.slice(start, cut);
    const fresh = replaced.filter((m) => !isPipelineSummary(m));
    if (fresh.length === 0) return state;
    const previous = replaced.find(isPipelineSummary);
    const merged = mergeIndex(state.index, indexMessages(emptyIndex(), fresh, ctx.requestOf));
    const out = ctx.summarizer.summarizeTurns({
      transcript: render(fresh),
      artifacts: merged,
      previous: previous ? blockText(previous.blocks[0]) : undefined,
      task: ctx.task(),
    });
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
    state.index = merged;
    state.count++;
    const firstReq = Math.min(...fresh.map((m) => ctx.requestOf(m.index)));
    const lastReq = Math.max(...fresh.map((m) => ctx.requestOf(m.index)));
    const header = `[Summary #${state.count} of earlier conversation (requests ${firstReq}–${lastReq}), written by the ${ctx.summarizer.id} summarizer]`;
    const text = `${header}\n${out.text.trim() ? `${out.text.trim()}\n` : ''}${renderSections(merged)}`;
    const summary: Message = {
      index: -1,
      role: 'user',
      blocks: [{ type: 'text', text }],
      source: { line: 0, uuid: SUMMARY_UUID },
      compaction: 'summary',
      meta: true,
    };
    for (const m of fresh) for (const b of m.blocks) if (b.type === 'tool_result') state.folded.add(b.toolUseId);
    const tokensBefore = work.tokensBetween(start, cut);
    const charsBefore = replaced.reduce((n, m) => n + m.blocks.reduce((k, b) => k + runeCount(blockText(b)), 0), 0);
    const kept = work.length - cut;
    work.splice(start, cut - start, [summary]);
    const tokensAfter = ctx.meter.message(summary);
    ctx.emit({
      action: 'summarize',
      messageIndex: -1,
      position: start,
      blockIndex: 0,
      charsBefore,
      charsAfter: runeCount(text),
      tokensBefore,
      tokensAfter,
      detail: `summarised ${fresh.length} messages (freed ${tokensBefore - tokensAfter} tokens), summary ${tokensAfter} tokens, ${kept} recent messages kept`,
      after: summary.blocks[0],
    });
    return state;
  },
};
