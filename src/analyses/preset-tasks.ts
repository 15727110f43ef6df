// Presets compared on tokens per task, not per request (issue 17, the seeds' skill): every preset replayed over
// the same log with the run's window, output reserve, cache rules, prices, mode and provider, and the recording
// beside them. Each row: tasks, tokens (estimated), the re-fetches its losses are followed by, dollars. Made on
// demand (six more replays) and kept in the RunMemo per settings key.
import type { Transcript } from '../model/transcript.ts';
import { PRESET_IDS, presetConfig } from '../pipeline/presets.ts';
import { summarizerFor } from '../pipeline/summarizer.ts';
import { type AnalyzeOptions, analyze } from './analyze.ts';
import type { RunMemo } from './run-memo.ts';
import type { PresetTaskRow, PresetTaskTable, TaskRow } from './tasks.ts';

/** The recording's totals from a run's task rows (observed; tasks with no usage at all add nothing). */
function recordingRow(rows: readonly TaskRow[]): PresetTaskRow {
  let tokens = 0;
  let refetchTokens = 0;
  let usd: number | null = null;
  for (const r of rows) {
    tokens += r.recorded.tokens ?? 0;
    refetchTokens += r.recorded.refetchTokens;
    if (r.recorded.usd !== null) usd = (usd ?? 0) + r.recorded.usd;
  }
  const n = Math.max(1, rows.length);
  return {
    preset: 'recording',
    basis: 'observed',
    tasks: rows.length,
    tokens,
    refetchTokens,
    usd,
    tokensPerTask: Math.round(tokens / n),
    tokensPerTaskWithoutRefetch: Math.round((tokens - refetchTokens) / n),
  };
}

/** What the table depends on besides the transcript: the settings every preset is replayed with. */
function presetTasksKey(o: Pick<AnalyzeOptions, 'config' | 'mode' | 'provider'>): string {
  const c = o.config;
  return JSON.stringify([o.mode, o.provider, c.contextWindow, c.outputReserve, c.cache, c.prices]);
}

/**
 * Tokens per task of the recording and of every preset under the run's window, cache rules, prices, mode and
 * provider. The presets' summaries use the extractive summarizer (a model summarizer would need a call per
 * summary of every preset); the table says which.
 */
export function tasksByPreset(
  t: Transcript,
  o: Pick<AnalyzeOptions, 'config' | 'mode' | 'provider' | 'tokenizer'>,
  cache: RunMemo,
): PresetTaskTable {
  const key = presetTasksKey(o);
  const kept = cache.presetTasks.get(key);
  if (kept) return kept;
  const rows: PresetTaskRow[] = [];
  for (const id of PRESET_IDS) {
    const c = o.config;
    const config = {
      ...presetConfig(id),
      contextWindow: c.contextWindow,
      outputReserve: c.outputReserve,
      cache: c.cache,
      prices: c.prices,
      summarizer: 'extractive' as const,
    };
    const a = analyze(t, {
      config,
      preset: id,
      mode: o.mode,
      provider: o.provider,
      tokenizer: o.tokenizer,
      cache,
      summarizer: summarizerFor('extractive'),
      reportRows: false,
      reportEvents: false,
    });
    if (rows.length === 0) rows.push(recordingRow(a.audit.tasks));
    rows.push({ preset: id, basis: 'estimated', ...a.audit.taskTotals });
  }
  const table = { rows, summarizer: 'extractive' };
  cache.presetTasks.set(key, table);
  return table;
}
