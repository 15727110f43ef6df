// The engine's run methods: a run of the pipeline and the analyses under the page's settings (stale runs dropped:
// each yields once so later requests supersede it before it starts; it counts its encoding first), answered with
// the run result (projections/run-result.ts); then what the last run offers on request — the report, a
// compaction with its texts, model probes, tokens per task across presets — and the http summarizer's calls.
import { analyze, withRows } from '../../src/analyses/analyze.ts';
import { gradeModelProbes, modelProbeCalls } from '../../src/analyses/model-probes.ts';
import { tasksByPreset } from '../../src/analyses/preset-tasks.ts';
import { CachedHttpSummarizer, summarizerFor } from '../../src/pipeline/summarizer.ts';
import { runNotes } from '../../src/projections/run-notes.ts';
import { listedRefetch, runResult } from '../../src/projections/run-result.ts';
import { runTimeline } from '../../src/projections/timeline.ts';
import { pointDetail } from '../../src/projections/timeline-columns.ts';
import type {
  CompactionDetail,
  EngineApi,
  LoadProgress,
  RunResult,
  RunSettings,
  StaleRun,
  SummaryAnswer,
} from '../api.ts';
import { clipText } from '../clip.ts';
import type { EngineState } from './state.ts';

type RunMethods = Pick<
  EngineApi,
  | 'run'
  | 'point'
  | 'report'
  | 'compaction'
  | 'refetchesOf'
  | 'modelProbes'
  | 'gradeModelProbes'
  | 'presetTasks'
  | 'summaryCalls'
  | 'fillSummaries'
  | 'clearSummaries'
>;

export function createRunMethods(s: EngineState): RunMethods {
  return {
    async point(runId, k) {
      const last = s.last;
      return last && last.runId === runId ? pointDetail(last.points, last.full, k) : null;
    },
    async run(
      runId: number,
      settings: RunSettings,
      onProgress?: (p: LoadProgress) => void,
    ): Promise<RunResult | StaleRun> {
      s.latestRun = Math.max(s.latestRun, runId);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (runId < s.latestRun) return { runId, stale: true };
      const loaded = s.loaded;
      if (!loaded) throw new Error('nothing loaded');
      const t0 = performance.now();
      onProgress?.({ phase: 'counting', fraction: 0 });
      await s.countingFor(settings.encoding, onProgress);
      if (runId < s.latestRun) return { runId, stale: true };
      const memo = await s.memoFor(loaded.transcript, settings.encoding);
      if (runId < s.latestRun) return { runId, stale: true };
      onProgress?.({ phase: 'replaying', fraction: 0.5 });
      const summarizer = summarizerFor(settings.config.summarizer, s.httpCache);
      const replayedBefore = memo.replayed;
      s.last = undefined;
      const analysis = analyze(loaded.transcript, {
        withoutPipeline: true,
        config: settings.config,
        preset: settings.preset,
        mode: settings.mode,
        provider: settings.provider,
        tokenizer: memo.meter.tokenizer,
        cache: memo,
        summarizer,
        reportEvents: false,
        reportRows: false,
      });
      s.options.onReplayed?.(memo.replayed - replayedBefore);
      const shown = runTimeline(loaded.transcript, analysis);
      const notes = runNotes(loaded.transcript, analysis, shown);
      s.last = {
        runId,
        analysis,
        full: shown.full,
        preset: settings.preset,
        memo,
        settings,
        points: shown.timeline,
        notes,
      };
      s.pendingCalls = summarizer instanceof CachedHttpSummarizer ? summarizer.pending.slice() : [];
      return runResult(
        loaded.transcript,
        analysis,
        shown,
        {
          runId,
          ms: performance.now() - t0,
          settings,
          pendingSummaries: s.pendingCalls.length,
        },
        notes,
      );
    },

    async report() {
      const last = s.last;
      if (!last || !s.loaded) return null;
      return withRows(s.loaded.transcript, last.analysis, {
        tokenizer: last.memo.meter.tokenizer,
        preset: last.preset,
        cache: last.memo,
        reportEvents: false,
      });
    },

    async compaction(id: string): Promise<CompactionDetail | null> {
      const row = s.last?.analysis.audit.compactions.find((c) => c.id === id);
      const texts = s.last?.analysis.audit.texts.get(id);
      if (!row || !texts) return null;
      const summary = clipText(texts.summary);
      const anchored = clipText(texts.anchored);
      return {
        row,
        summary,
        anchored,
        ledger: texts.ledger,
        clipped: summary.length < texts.summary.length || anchored.length < texts.anchored.length,
      };
    },

    async refetchesOf(toolUseIds: string[]) {
      const all = s.last?.analysis.report.refetches;
      if (!all) return null;
      const ids = new Set(toolUseIds);
      return all.filter((f) => listedRefetch(f) && (ids.has(f.firstToolUseId) || ids.has(f.repeatToolUseId)));
    },

    async modelProbes(id: string) {
      const texts = s.last?.analysis.audit.texts.get(id);
      return texts ? modelProbeCalls(id, texts.summary) : null;
    },

    async gradeModelProbes(id: string, answers: SummaryAnswer[]) {
      const texts = s.last?.analysis.audit.texts.get(id);
      if (!texts) return null;
      const byKey = new Map(answers.map((a) => [a.key, a.outcome]));
      return gradeModelProbes(modelProbeCalls(id, texts.summary), byKey, texts.ledger);
    },

    async presetTasks() {
      const last = s.last;
      if (!last || !s.loaded) return null;
      const st = last.settings;
      return tasksByPreset(
        s.loaded.transcript,
        { config: st.config, mode: st.mode, provider: st.provider, tokenizer: last.memo.meter.tokenizer },
        last.memo,
      );
    },

    async summaryCalls() {
      return s.pendingCalls;
    },

    async fillSummaries(answers: SummaryAnswer[]) {
      for (const a of answers) s.httpCache.set(a.key, a.outcome);
    },

    async clearSummaries(onlyFailures?: boolean) {
      if (onlyFailures) {
        for (const [k, v] of s.httpCache) if (!v.ok) s.httpCache.delete(k);
      } else s.httpCache.clear();
    },
  };
}
