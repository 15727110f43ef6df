// The engine behind EngineApi: holds the loaded transcript, its bytes (for raw line views), tokenizers
// and identity caches that survive re-runs, and the last analysis (for diffs and the report). Pure
// TypeScript with no DOM: it runs in the worker, in Node tests, and in-thread as the no-worker fallback.
// Stale runs are dropped: each run yields once so later requests can supersede it before it starts.
import { type Analysis, analyze, withRows } from '../src/analyses/analyze.ts';
import { idleReason, resultMessages } from '../src/analyses/idle-reason.ts';
import { logDefaults } from '../src/analyses/log-defaults.ts';
import { gradeModelProbes, modelProbeCalls } from '../src/analyses/model-probes.ts';
import { tasksByPreset } from '../src/analyses/preset-tasks.ts';
import { RunMemo } from '../src/analyses/run-memo.ts';
import {
  APP_MAX_FILE_BYTES,
  type HeldLines,
  heldLines,
  type LoadLimits,
  parseTranscript,
} from '../src/formats/index.ts';
import { skipReason } from '../src/formats/skip-reasons.ts';
import { fileIsSqlite, type SqliteOpener } from '../src/formats/sqlite.ts';
import { exportBundle } from '../src/formats/tierscope.ts';
import { lineBreakOf } from '../src/lib/lines.ts';
import { carryOver } from '../src/model/carry-over.ts';
import { sourceFormat } from '../src/model/source-format.ts';
import type { Block, FormatId, Thread, Transcript } from '../src/model/transcript.ts';
import { hardcapTokens, landingTokens, triggerTokens } from '../src/pipeline/config.ts';
import type { PipelineEvent } from '../src/pipeline/stage.ts';
import { tier1StubTexts } from '../src/pipeline/stub-texts.ts';
import { CachedHttpSummarizer, type HttpCall, type SummaryOutcome, summarizerFor } from '../src/pipeline/summarizer.ts';
import { messageRows } from '../src/projections/rows.ts';
import { runTimeline } from '../src/projections/timeline.ts';
import { carries } from '../src/replay/cache.ts';
import { sessionTitle } from '../src/sessions/title.ts';
import { type CountEndpoint, inlineEndpoint } from '../src/tokens/count-pool.ts';
import { countTranscript } from '../src/tokens/count-transcript.ts';
import { TokenMeter } from '../src/tokens/meter.ts';
import {
  type CachedTokenizer,
  createTokenizer,
  type EncodingName,
  loadCounter,
  type Tokenizer,
} from '../src/tokens/tokenizer.ts';
import type {
  CompactionDetail,
  CountStatus,
  DiffResult,
  EngineApi,
  EventRow,
  LoadFailure,
  LoadFile,
  LoadProgress,
  LoadSummary,
  MessageDetail,
  Row,
  RunResult,
  RunSettings,
  StaleRun,
  SummaryAnswer,
} from './api.ts';
import { type ByteSource, prepareInput } from './blob-input.ts';
import { clippedJson, clipText } from './clip.ts';
import { createFolderMethods } from './folder-engine.ts';
import { createShareMethods, shareInFile } from './share-engine.ts';

type Loaded = {
  transcript: Transcript;
  /** The loaded files, read again slice by slice for raw-line views (never held whole when they came as Blobs). */
  files: Map<string, ByteSource>;
  mainName: string;
  lineStarts: Map<string, Float64Array>;
};

/** Why each skipped line kind was left out of the conversation, for the load status tooltip. */
function reasonsFor(skipped: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(skipped)) {
    const why = skipReason(k);
    if (why) out[k] = why;
  }
  return out;
}

function lineStartsOf(source: ByteSource): Float64Array {
  const starts = [0];
  let base = 0;
  const lf = lineBreakOf(source.read(0, Math.min(source.size, 64 * 1024)));
  for (const chunk of source.chunks()) {
    let i = chunk.indexOf(lf);
    while (i !== -1) {
      starts.push(base + i + 1);
      i = chunk.indexOf(lf, i + 1);
    }
    base += chunk.length;
  }
  return Float64Array.from(starts);
}

function blockJson(b: Block | undefined): string {
  if (!b) return '';
  if (b.type === 'tool_result') return typeof b.content === 'string' ? clipText(b.content) : clippedJson(b.content);
  if (b.type === 'text') return clipText(b.text);
  return clippedJson(b);
}

export type EngineOptions = {
  /** Counting pool transport (browser workers); without it counting runs in this thread. */
  endpoints?: () => CountEndpoint[];
  /** Told after each run how many requests it ran through the pipeline (tests and the bench: the work a followed
   *  session's growth costs, which reuse and resumption keep to the new requests). */
  onReplayed?: (requests: number) => void;
  /** Loads the SQLite engine (sql.js) the first time a database (opencode.db) is opened or scanned. */
  sqlite?: () => Promise<SqliteOpener>;
};

export function createEngine(options: EngineOptions = {}): EngineApi {
  let loaded: Loaded | undefined;
  let sqlite: Promise<SqliteOpener> | undefined;
  const sqliteEngine = options.sqlite
    ? () => (sqlite ??= (options.sqlite as () => Promise<SqliteOpener>)())
    : undefined;
  /** The lines of a followed session's main file (by the name it was sent under) and of its sub-agent files (by
   *  theirs), for its next growth. */
  let held: { name: string; lines: HeldLines; extras: Map<string, HeldLines> } | undefined;
  /** The loaded session is followed: its run caches keep their replays running for its next growth. */
  let following = false;
  /** The run cache of the loaded transcript per encoding (analyses/run-memo.ts): every run-to-run memo lives there,
   *  and all of it is dropped when another transcript loads. */
  const caches = new Map<EncodingName, Promise<RunMemo>>();
  const httpCache = new Map<string, SummaryOutcome>();
  /** The http summarizer calls the last run could not answer from httpCache. */
  let pendingCalls: HttpCall[] = [];
  let last:
    | {
        analysis: Analysis;
        events: EventRow[];
        full: PipelineEvent[];
        preset: string | null;
        tokenizer: Tokenizer;
        cache: RunMemo;
        settings: RunSettings;
      }
    | undefined;
  let latestRun = 0;
  /** Loads started, and the newest one cancelled (cancelLoad): a cancelled load never replaces what is loaded; a
   *  load overtaken by a newer one while it read its input is dropped, so what the engine holds is always what the
   *  page asked for last (the page drops that reply too: state/store.ts). */
  let loads = 0;
  let cancelledLoad = 0;
  /** Exact counting of the loaded transcript per encoding: the load's encoding starts as it loads, another when a
   *  run or the rows first ask for it. Rows and runs of one encoding show the same counts. */
  const countings = new Map<EncodingName, Promise<CountStatus>>();
  /** The encoding the load was asked to count with (what rows show unless asked for another). */
  let loadEncoding: EncodingName = 'o200k_base';

  function countingFor(enc: EncodingName, onProgress?: (p: LoadProgress) => void): Promise<CountStatus> {
    let p = countings.get(enc);
    if (!p) {
      p = loaded ? startCounting(loaded.transcript, enc, onProgress) : Promise.resolve({ done: true, fraction: 1 });
      countings.set(enc, p);
    }
    return p;
  }

  function startCounting(
    t: Transcript,
    enc: EncodingName,
    onProgress?: (p: LoadProgress) => void,
  ): Promise<CountStatus> {
    return (async () => {
      const cache = await cacheFor(t, enc);
      const endpoints = options.endpoints ?? (() => [inlineEndpoint(() => loadCounter(enc))]);
      const stats = await countTranscript(
        t,
        cache.meter,
        enc,
        endpoints,
        (p) =>
          onProgress?.({
            phase: 'counting',
            fraction: p.totalChars > 0 ? p.chars / p.totalChars : 1,
            detail: `${p.done}/${p.total} batches`,
          }),
        () => tier1StubTexts(t, cache.pipeline.runes),
      );
      onProgress?.({ phase: 'counting', fraction: 1, detail: 'exact counts ready' });
      return { done: true, fraction: 1, ms: stats.ms, pooled: stats.pooled };
    })();
  }

  /** One tokenizer per encoding for the engine's life (its rank tables are costly to build; its counts are by
   *  content hash, valid for any transcript). */
  const tokenizers = new Map<EncodingName, Promise<CachedTokenizer>>();
  function tokenizerFor(enc: EncodingName): Promise<CachedTokenizer> {
    let p = tokenizers.get(enc);
    if (!p) {
      p = createTokenizer(enc);
      tokenizers.set(enc, p);
    }
    return p;
  }

  /** The run cache of `t` for `enc`, made on first use (concurrent callers share it). */
  function cacheFor(t: Transcript, enc: EncodingName): Promise<RunMemo> {
    let p = caches.get(enc);
    if (!p) {
      const keepRuns = following;
      p = tokenizerFor(enc).then((tok) => {
        const cache = new RunMemo(t, new TokenMeter(tok));
        cache.keepRuns = keepRuns;
        return cache;
      });
      caches.set(enc, p);
    }
    return p;
  }

  /** The run cache of `t`, a growth of the transcript `c` was made for: carried over when its memos hold. */
  function grownCache(c: RunMemo, t: Transcript): RunMemo {
    if (carries(c, t)) return new RunMemo(t, c.meter, undefined, c);
    const fresh = new RunMemo(t, new TokenMeter(c.meter.tokenizer));
    fresh.keepRuns = true;
    return fresh;
  }

  function thread(id: string): Thread | undefined {
    return loaded?.transcript.threads.find((t) => t.id === id);
  }

  function rawLines(file: string, lines: number[]): string | null {
    if (!loaded) return null;
    const source = loaded.files.get(file);
    if (!source) return null;
    let starts = loaded.lineStarts.get(file);
    if (!starts) {
      starts = lineStartsOf(source);
      loaded.lineStarts.set(file, starts);
    }
    const dec = new TextDecoder();
    const out: string[] = [];
    for (const ln of lines) {
      if (ln < 1 || ln > starts.length) continue;
      const a = starts[ln - 1];
      const b = ln < starts.length ? starts[ln] - 1 : source.size;
      // The line as written (issue 29: parsed and re-serialised, a duplicate key hid its first value, a 30-digit
      // integer became 1.23…e+29 and 1e400 null); clipped only when longer than the viewer holds.
      out.push(clipText(dec.decode(source.read(a, b)).replace(/\r$/, '')));
    }
    return out.join('\n');
  }

  const shareMethods = createShareMethods({
    transcript: () => loaded?.transcript,
    tokenizer: (enc) => tokenizerFor(enc),
    load: (files, onProgress) => engine.load(files, 'tierscope', onProgress),
  });

  const engine: EngineApi = {
    async load(
      files: LoadFile[],
      format: FormatId | undefined,
      onProgress?: (p: LoadProgress) => void,
      limits?: Partial<LoadLimits>,
      follow?: 'start' | 'grow',
      session?: string,
      encoding?: EncodingName,
    ): Promise<LoadSummary | LoadFailure> {
      const t0 = performance.now();
      const seq = ++loads;
      const cancelled = () => cancelledLoad >= seq;
      const stopped: LoadFailure = { ok: false, error: 'cancelled, nothing of it was loaded.', issues: [] };
      // A followed session's lines, kept from its last load; any other load lets them go.
      const growing = follow === 'grow' && held !== undefined && held.name === files[0]?.name;
      const keep = growing ? held?.lines : follow ? heldLines() : undefined;
      const keepExtras = growing ? held?.extras : follow ? new Map<string, HeldLines>() : undefined;
      held = undefined;
      if (files.length === 0) return { ok: false, error: 'No file given.', issues: [] };
      // Every input path (picker, drop, paste, ?src=, share file) is checked against the file-size limit here,
      // before anything is parsed; gzip is undone on the way in.
      const maxBytes = limits?.maxFileBytes ?? APP_MAX_FILE_BYTES;
      onProgress?.({ phase: 'reading', fraction: 0 });
      const prepared = [];
      for (const f of files) {
        const p = await prepareInput(f, maxBytes, (fraction) => onProgress?.({ phase: 'reading', fraction }));
        if (cancelled()) return stopped;
        if (!p.ok) {
          if (prepared.length === 0) return { ok: false, error: p.error, issues: [] };
          continue; // a companion file: the main file still loads (parseTranscript reports missing companions)
        }
        prepared.push(p);
      }
      if (seq !== loads) return { ok: false, error: 'A newer load replaced this one.', issues: [] };
      const [main, ...extra] = prepared.map((p) => p.source);
      onProgress?.({ phase: 'parsing', fraction: 0 });
      const database = fileIsSqlite(main) && sqliteEngine ? await sqliteEngine() : undefined;
      const r = parseTranscript(main, extra, {
        ...(database ? { sqlite: database } : {}),
        ...(session !== undefined ? { session } : {}),
        format,
        limits,
        progress: (f) => onProgress?.({ phase: 'parsing', fraction: f }),
        held: keep,
        heldExtras: keepExtras,
      });
      if (!r.ok) return { ok: false, error: r.error, issues: r.issues };
      // A cancel sent while parsing is read now, before anything of the file replaces what is loaded.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (cancelled()) return stopped;
      if (keep && keepExtras) held = { name: files[0].name, lines: keep, extras: keepExtras };
      following = follow !== undefined;
      for (const p of prepared)
        if (p.issue)
          r.transcript.parseIssues.unshift({ line: 0, severity: 'warning', message: p.issue, file: p.source.name });
      const fileMap = new Map<string, ByteSource>(prepared.map((p) => [p.source.name, p.source]));
      // A growth keeps the objects the file's last read made that did not change, and the run cache with them.
      const earlier = growing && loaded ? loaded.transcript : undefined;
      const t = earlier ? carryOver(earlier, r.transcript) : r.transcript;
      loaded = { transcript: t, files: fileMap, mainName: main.name, lineStarts: new Map() };
      last = undefined;
      const kept = earlier ? [...caches] : [];
      caches.clear();
      for (const [enc, before] of kept)
        caches.set(
          enc,
          before.then((c) => grownCache(c, t)),
        );
      countings.clear();
      loadEncoding = encoding ?? 'o200k_base';
      void countingFor(loadEncoding, onProgress);
      let toolUses = 0;
      let toolResults = 0;
      let messages = 0;
      let requests = 0;
      for (const th of t.threads) {
        messages += th.messages.length;
        requests += th.requests.length;
        for (const m of th.messages)
          for (const b of m.blocks) {
            if (b.type === 'tool_use') toolUses++;
            else if (b.type === 'tool_result') toolResults++;
          }
      }
      const share = t.format === 'tierscope' ? shareInFile(main, t) : undefined;
      return {
        ok: true,
        fileName: files[0].name,
        // A bundle (a share link, a share file) names the format its transcript was first read from.
        format: sourceFormat(t),
        version: t.meta.version,
        title: sessionTitle(t) ?? undefined,
        bytes: main.size,
        threads: t.threads.map((th) => ({
          id: th.id,
          kind: th.kind,
          title: th.title,
          messages: th.messages.length,
          requests: th.requests.length,
          parentToolUseId: th.parentToolUseId,
        })),
        counts: { threads: t.threads.length, messages, requests, toolUses, toolResults },
        parseIssues: t.parseIssues,
        skipped: t.meta.skipped ?? {},
        skippedWhy: reasonsFor(t.meta.skipped ?? {}),
        ...(t.meta.assumedModel ? { assumedModel: t.meta.assumedModel } : {}),
        ...(t.threads[0]?.fork && t.threads[0].kind === 'main' ? { forkOf: t.threads[0].fork.from } : {}),
        loadMs: performance.now() - t0,
        defaults: logDefaults(t),
        ...(share ? { share } : {}),
      };
    },

    async cancelLoad(): Promise<void> {
      cancelledLoad = loads;
    },

    async rows(threadId: string, encoding?: EncodingName): Promise<Row[]> {
      const th = thread(threadId);
      if (!th) return [];
      if (!loaded) return [];
      const cache = await cacheFor(loaded.transcript, encoding ?? loadEncoding);
      return messageRows(th, cache.meter, cache.previews);
    },

    async run(
      runId: number,
      settings: RunSettings,
      onProgress?: (p: LoadProgress) => void,
    ): Promise<RunResult | StaleRun> {
      latestRun = Math.max(latestRun, runId);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (runId < latestRun) return { runId, stale: true };
      if (!loaded) throw new Error('nothing loaded');
      const t0 = performance.now();
      onProgress?.({ phase: 'counting', fraction: 0 });
      await countingFor(settings.encoding, onProgress);
      if (runId < latestRun) return { runId, stale: true };
      const cache = await cacheFor(loaded.transcript, settings.encoding);
      const meter = cache.meter;
      if (runId < latestRun) return { runId, stale: true };
      onProgress?.({ phase: 'replaying', fraction: 0.5 });
      const summarizer = summarizerFor(settings.config.summarizer, httpCache);
      const replayedBefore = cache.replayed;
      const analysis = analyze(loaded.transcript, {
        withoutPipeline: true,
        config: settings.config,
        preset: settings.preset,
        mode: settings.mode,
        provider: settings.provider,
        tokenizer: meter.tokenizer,
        cache,
        summarizer,
        reportEvents: false,
        reportRows: false,
      });
      options.onReplayed?.(cache.replayed - replayedBefore);
      const report = analysis.report;
      const { timeline, events, full, breaks } = runTimeline(loaded.transcript, analysis);
      last = { analysis, events, full, preset: settings.preset, tokenizer: meter.tokenizer, cache, settings };
      const c = settings.config;
      pendingCalls = summarizer instanceof CachedHttpSummarizer ? summarizer.pending.slice() : [];
      const pending = pendingCalls.length;
      return {
        runId,
        ms: performance.now() - t0,
        settings,
        totals: report.totals,
        selfCheck: report.selfCheck,
        cacheFindings: report.cacheFindings,
        calibration: report.calibration,
        lines: {
          window: c.contextWindow,
          trigger: triggerTokens(c),
          landing: landingTokens(c),
          hardcap: hardcapTokens(c),
        },
        toolResults: report.toolResults,
        timeline,
        events,
        breaks,
        pairing: analysis.replay.threads.flatMap((tr) => tr.requests.flatMap((q) => q.pairing)),
        refetches: report.refetches,
        compactions: analysis.audit.compactions,
        tasks: analysis.audit.tasks,
        taskTotals: analysis.audit.taskTotals,
        pendingSummaries: pending,
        idle: idleReason({
          config: c,
          mode: settings.mode,
          requests: timeline,
          eventStages: events.map((e) => e.stage),
          agentCompactions: analysis.audit.compactions.filter((r) => r.source === 'agent'),
          resultMessages: () => resultMessages(loaded?.transcript),
        }),
      };
    },

    async detail(threadId: string, messageIndex: number): Promise<MessageDetail | null> {
      const th = thread(threadId);
      const m = th?.messages[messageIndex];
      if (!th || !m || !loaded) return null;
      const lines = [m.source.line, ...(m.source.lines ?? [])]
        .filter((x, i, a) => x > 0 && a.indexOf(x) === i)
        .sort((a, b) => a - b);
      const file = m.source.file ?? loaded.mainName;
      // A bundle (share link, .tierscope.json) carries the normalized transcript; its messages' lines are the source
      // file's, which is not here: reading them from the bundle showed the whole bundle as "line 1".
      const t = loaded.transcript;
      const bundled = t.format === 'tierscope';
      const raw = bundled || m.source.path || lines.length === 0 ? null : rawLines(file, lines);
      const from = [t.meta.fileName, t.meta.originalFormat].filter(Boolean).join(', ');
      return {
        thread: threadId,
        index: messageIndex,
        normalized: clippedJson(m),
        raw,
        line: m.source.line,
        path: m.source.path,
        ...(bundled
          ? {
              rawNote: `a Tierscope bundle (share link or .tierscope.json) carries the normalized transcript, not its source file${m.source.line > 0 ? `: this message was line ${m.source.line} of the source${from ? ` (${from})` : ''}` : ''}; normalized shown`,
            }
          : {}),
      };
    },

    async diff(eventId: number): Promise<DiffResult | null> {
      const e = last?.full[eventId];
      if (!e) return null;
      const where = e.messageIndex >= 0 ? `message ${e.messageIndex}` : 'summary';
      return {
        before: blockJson(e.before),
        after: blockJson(e.after),
        title: `${e.stage} · ${e.action}${e.tier ? ` · tier ${e.tier}` : ''} · ${where} · request ${e.request}`,
      };
    },

    counted() {
      return countingFor(loadEncoding);
    },

    async report() {
      if (!last || !loaded) return null;
      return withRows(loaded.transcript, last.analysis, {
        tokenizer: last.tokenizer,
        preset: last.preset,
        cache: last.cache,
        reportEvents: false,
      });
    },

    async compaction(id: string): Promise<CompactionDetail | null> {
      const row = last?.analysis.audit.compactions.find((c) => c.id === id);
      const texts = last?.analysis.audit.texts.get(id);
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

    async modelProbes(id: string) {
      const texts = last?.analysis.audit.texts.get(id);
      return texts ? modelProbeCalls(id, texts.summary) : null;
    },

    async gradeModelProbes(id: string, answers: SummaryAnswer[]) {
      const texts = last?.analysis.audit.texts.get(id);
      if (!texts) return null;
      const byKey = new Map(answers.map((a) => [a.key, a.outcome]));
      return gradeModelProbes(modelProbeCalls(id, texts.summary), byKey, texts.ledger);
    },

    async presetTasks() {
      if (!last || !loaded) return null;
      const s = last.settings;
      return tasksByPreset(
        loaded.transcript,
        { config: s.config, mode: s.mode, provider: s.provider, tokenizer: last.tokenizer },
        last.cache,
      );
    },

    async exportBundle() {
      return loaded ? exportBundle(loaded.transcript) : null;
    },

    async summaryCalls() {
      return pendingCalls;
    },

    async fillSummaries(answers: SummaryAnswer[]) {
      for (const a of answers) httpCache.set(a.key, a.outcome);
    },

    async clearSummaries(onlyFailures?: boolean) {
      if (onlyFailures) {
        for (const [k, v] of httpCache) if (!v.ok) httpCache.delete(k);
      } else httpCache.clear();
    },

    ...shareMethods,
    ...createFolderMethods(sqliteEngine),
  };
  return engine;
}
