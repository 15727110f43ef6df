// Summarizers used by Tier 2 (one tool result) and by turn summarisation (SPEC §4): `extractive`
// (local, deterministic), `fail` (every call fails: exercises budgets and the breaker) and `http`
// (a user-supplied endpoint; the browser fills a cache asynchronously and the replay re-runs, so the
// pipeline itself stays synchronous and deterministic).

import { hashKey } from '../lib/hash.ts';
import { headRunes, runeCount } from '../lib/runes.ts';
import type { ArtifactIndex } from './artifacts.ts';

export type ResultSummaryRequest = { tool: string; text: string; task: string };
export type TurnSummaryRequest = {
  transcript: string;
  artifacts: ArtifactIndex;
  /** Whether a previous summary is merged (without reading `previous`, which may render it). */
  hasPrevious: boolean;
  previous?: string;
  task: string;
};

export type SummaryOutcome = { ok: true; text: string } | { ok: false; error: string; pending?: boolean };

export interface Summarizer {
  readonly id: string;
  /** One or two sentences about one tool result (Tier 2). */
  summarizeResult(req: ResultSummaryRequest): SummaryOutcome;
  /** Prose for the anchored summary of old turns (sections come from the artifact index). */
  summarizeTurns(req: TurnSummaryRequest): SummaryOutcome;
}

function firstLine(text: string, max: number): string {
  const l = text.split('\n').find((x) => x.trim() !== '') ?? '';
  const t = l.trim();
  return runeCount(t) > max ? `${headRunes(t, max)}…` : t;
}

/** Deterministic local summaries: first/last lines, line counts and error lines of a result. */
export const extractiveSummarizer: Summarizer = {
  id: 'extractive',
  summarizeResult({ tool, text }) {
    const lines = text.split('\n');
    const errorLine = lines.find((l) => /\b(error|exception|failed|traceback)\b/i.test(l));
    const last = [...lines].reverse().find((l) => l.trim() !== '') ?? '';
    const parts = [
      `${tool} returned ${lines.length} lines (${runeCount(text)} chars)`,
      `first: ${firstLine(text, 120)}`,
    ];
    if (errorLine) parts.push(`error: ${firstLine(errorLine, 120)}`);
    else if (last.trim() !== firstLine(text, 1e9)) parts.push(`last: ${firstLine(last, 80)}`);
    return { ok: true, text: `${parts.join('; ')}.` };
  },
  summarizeTurns({ hasPrevious }) {
    return { ok: true, text: hasPrevious ? 'Earlier summary merged below.' : '' };
  },
};

/** Every call fails (tests the per-pass attempt budget and the circuit breaker). */
export const failingSummarizer: Summarizer = {
  id: 'fail',
  summarizeResult: () => ({ ok: false, error: 'summarizer configured to fail' }),
  summarizeTurns: () => ({ ok: false, error: 'summarizer configured to fail' }),
};

export type HttpCall = { key: string; kind: 'result' | 'turns'; prompt: string };

/**
 * A summarizer backed by a cache that something asynchronous (the browser's fetch) fills. A miss is a
 * failure marked `pending` and the call is queued; after filling the cache the replay runs again.
 */
export class CachedHttpSummarizer implements Summarizer {
  readonly id = 'http';
  readonly pending: HttpCall[] = [];
  constructor(private readonly cache: Map<string, SummaryOutcome>) {}

  private lookup(kind: 'result' | 'turns', prompt: string): SummaryOutcome {
    const key = hashKey(`${kind}\n${prompt}`);
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (!this.pending.some((p) => p.key === key)) this.pending.push({ key, kind, prompt });
    return { ok: false, error: 'waiting for the summarizer endpoint', pending: true };
  }

  summarizeResult(req: ResultSummaryRequest): SummaryOutcome {
    const task = req.task ? `Current task (prefer details relevant to it): ${headRunes(req.task, 240)}\n\n` : '';
    return this.lookup(
      'result',
      `${task}Summarize this ${req.tool} tool result in one or two sentences. Keep exact error strings, paths, URLs, ids and numbers.\n\n${req.text}`,
    );
  }

  summarizeTurns(req: TurnSummaryRequest): SummaryOutcome {
    return this.lookup(
      'turns',
      `Summarize these earlier agent turns for the agent itself: intent, decisions, current state, next steps. Be brief and exact.\n\n${req.previous ? `Previous summary:\n${req.previous}\n\n` : ''}${req.transcript}`,
    );
  }
}

/** The summarizer for a config value (http needs a cache supplied by the host). */
export function summarizerFor(kind: string, httpCache?: Map<string, SummaryOutcome>): Summarizer {
  if (kind === 'fail') return failingSummarizer;
  if (kind === 'http') return new CachedHttpSummarizer(httpCache ?? new Map());
  return extractiveSummarizer;
}
