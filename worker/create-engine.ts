// The engine behind EngineApi: holds the loaded transcript, its bytes (for raw line views), tokenizers
// and identity caches that survive re-runs, and the last analysis (for diffs and the report). Pure
// TypeScript with no DOM: it runs in the worker, in Node tests, and in-thread as the no-worker fallback.
// Stale runs are dropped: each run yields once so later requests can supersede it before it starts.
import { type Analysis, analyze, withoutPipelineKey, withRows } from '../src/analyses/analyze.ts';
import type { CostTotals } from '../src/analyses/cost.ts';
import { logDefaults } from '../src/analyses/log-defaults.ts';
import { cacheBreakRow, estimateRow, observedBreakRow } from '../src/analyses/report.ts';
import { indexToolCalls } from '../src/analyses/tool-index.ts';
import { fileFromBytes, type LoadLimits, parseTranscript } from '../src/formats/index.ts';
import { skipReason } from '../src/formats/skip-reasons.ts';
import { exportBundle } from '../src/formats/tierscope.ts';
import type { Block, FormatId, Message, Request, Thread, Transcript } from '../src/model/transcript.ts';
import { hardcapTokens, landingTokens, triggerTokens } from '../src/pipeline/config.ts';
import type { PipelineEvent } from '../src/pipeline/stage.ts';
import { CachedHttpSummarizer, type HttpCall, type SummaryOutcome, summarizerFor } from '../src/pipeline/summarizer.ts';
import { calibrateTranscript } from '../src/replay/transcript.ts';
import { blockText, resultText } from '../src/tokens/block-text.ts';
import type { Calibration } from '../src/tokens/calibration.ts';
import { type CountEndpoint, inlineEndpoint } from '../src/tokens/count-pool.ts';
import { countTranscript } from '../src/tokens/count-transcript.ts';
import { TokenMeter } from '../src/tokens/meter.ts';
import { createTokenizer, type EncodingName, loadCounter, type Tokenizer } from '../src/tokens/tokenizer.ts';
import type {
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
  TimelinePoint,
} from './api.ts';
import { clippedJson, clipText } from './clip.ts';
import { createShareMethods, shareInFile } from './share-engine.ts';

type Loaded = {
  transcript: Transcript;
  files: Map<string, Uint8Array>;
  mainName: string;
  lineStarts: Map<string, Uint32Array>;
};

const PREVIEW = 160;
/** Requests without rewrites (most) share one frozen empty id list. */
const NO_IDS: number[] = Object.freeze([]) as unknown as number[];

/** A request's observed usage as the timeline shows it: the same on every run, made once per request. */
function reasonsFor(skipped: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(skipped)) {
    const why = skipReason(k);
    if (why) out[k] = why;
  }
  return out;
}

const observedRows = new WeakMap<Request, TimelinePoint['observed']>();
function observedOf(req: Request): TimelinePoint['observed'] {
  let row = observedRows.get(req);
  if (row === undefined) {
    const o = req.observed;
    row = o
      ? {
          input: o.input,
          cacheRead: o.cacheRead,
          cacheWrite: o.cacheWrite,
          output: o.output,
          prompt: o.input + o.cacheRead + o.cacheWrite,
        }
      : null;
    observedRows.set(req, row);
  }
  return row;
}

function lineStartsOf(bytes: Uint8Array): Uint32Array {
  const starts = [0];
  let i = bytes.indexOf(10);
  while (i !== -1) {
    starts.push(i + 1);
    i = bytes.indexOf(10, i + 1);
  }
  return Uint32Array.from(starts);
}

function previewOf(m: Message): string {
  const parts: string[] = [];
  let len = 0;
  for (const b of m.blocks) {
    const t =
      b.type === 'tool_use'
        ? `${b.name}(${blockText(b).slice(b.name.length + 1, 120)})`
        : b.type === 'image'
          ? '[image]'
          : b.type === 'tool_result'
            ? resultText(b)
            : blockText(b);
    parts.push(t.replace(/\s+/g, ' ').trim());
    len += t.length;
    if (len > PREVIEW) break;
  }
  const s = parts.filter(Boolean).join(' · ');
  return s.length > PREVIEW ? `${s.slice(0, PREVIEW)}…` : s;
}

/** The event without its blocks (the diff view fetches them by id): fields copied by name, which is several
 *  times cheaper than a rest spread over thousands of events per run. */
function eventRow(e: PipelineEvent, id: number): EventRow {
  return {
    id,
    thread: e.thread,
    request: e.request,
    stage: e.stage,
    action: e.action,
    tier: e.tier,
    messageIndex: e.messageIndex,
    position: e.position,
    blockIndex: e.blockIndex,
    toolUseId: e.toolUseId,
    charsBefore: e.charsBefore,
    charsAfter: e.charsAfter,
    tokensBefore: e.tokensBefore,
    tokensAfter: e.tokensAfter,
    detail: e.detail,
    distance: e.distance,
  };
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
};

export function createEngine(options: EngineOptions = {}): EngineApi {
  let loaded: Loaded | undefined;
  const calibrations = new Map<EncodingName, Map<string, Calibration>>();
  const httpCache = new Map<string, SummaryOutcome>();
  /** The http summarizer calls the last run could not answer from httpCache. */
  let pendingCalls: HttpCall[] = [];
  let last:
    | { analysis: Analysis; events: EventRow[]; full: PipelineEvent[]; preset: string | null; tokenizer: Tokenizer }
    | undefined;
  let latestRun = 0;
  /** The cost without the pipeline of the loaded transcript, for the settings it was made with (a threshold
   *  change leaves it valid, so re-runs skip its replay). */
  let unchanged: { key: string; totals: CostTotals } | undefined;
  let counting: Promise<CountStatus> = Promise.resolve({ done: true, fraction: 1 });

  function startCounting(t: Transcript, onProgress?: (p: LoadProgress) => void): Promise<CountStatus> {
    return (async () => {
      const meter = await meterFor('o200k_base');
      const endpoints = options.endpoints ?? (() => [inlineEndpoint(() => loadCounter('o200k_base'))]);
      const stats = await countTranscript(t, meter, 'o200k_base', endpoints, (p) =>
        onProgress?.({
          phase: 'counting',
          fraction: p.totalChars > 0 ? p.chars / p.totalChars : 1,
          detail: `${p.done}/${p.total} batches`,
        }),
      );
      onProgress?.({ phase: 'counting', fraction: 1, detail: 'exact counts ready' });
      return { done: true, fraction: 1, ms: stats.ms, pooled: stats.pooled };
    })();
  }

  /** One meter per encoding; the promise is cached so concurrent callers share one meter and its caches. */
  const meterPromises = new Map<EncodingName, Promise<TokenMeter>>();
  function meterFor(enc: EncodingName): Promise<TokenMeter> {
    let p = meterPromises.get(enc);
    if (!p) {
      p = createTokenizer(enc).then((tok) => new TokenMeter(tok));
      meterPromises.set(enc, p);
    }
    return p;
  }

  function thread(id: string): Thread | undefined {
    return loaded?.transcript.threads.find((t) => t.id === id);
  }

  function rawLines(file: string, lines: number[]): string | null {
    if (!loaded) return null;
    const bytes = loaded.files.get(file);
    if (!bytes) return null;
    let starts = loaded.lineStarts.get(file);
    if (!starts) {
      starts = lineStartsOf(bytes);
      loaded.lineStarts.set(file, starts);
    }
    const dec = new TextDecoder();
    const out: string[] = [];
    for (const ln of lines) {
      if (ln < 1 || ln > starts.length) continue;
      const a = starts[ln - 1];
      const b = ln < starts.length ? starts[ln] - 1 : bytes.length;
      const text = dec.decode(bytes.subarray(a, b)).replace(/\r$/, '');
      try {
        out.push(clippedJson(JSON.parse(text)));
      } catch {
        out.push(clipText(text));
      }
    }
    return out.join('\n\n');
  }

  const shareMethods = createShareMethods({
    transcript: () => loaded?.transcript,
    tokenizer: async (enc) => (await meterFor(enc)).tokenizer,
    load: (files, onProgress) => engine.load(files, 'tierscope', onProgress),
  });

  const engine: EngineApi = {
    async load(
      files: LoadFile[],
      format: FormatId | undefined,
      onProgress?: (p: LoadProgress) => void,
      limits?: Partial<LoadLimits>,
    ): Promise<LoadSummary | LoadFailure> {
      const t0 = performance.now();
      if (files.length === 0) return { ok: false, error: 'No file given.', issues: [] };
      const [main, ...extra] = files.map((f) => ({ name: f.name, bytes: new Uint8Array(f.buffer) }));
      onProgress?.({ phase: 'parsing', fraction: 0 });
      const r = parseTranscript(
        fileFromBytes(main.name, main.bytes),
        extra.map((e) => fileFromBytes(e.name, e.bytes)),
        { format, limits, progress: (f) => onProgress?.({ phase: 'parsing', fraction: f }) },
      );
      if (!r.ok) return { ok: false, error: r.error, issues: r.issues };
      const fileMap = new Map<string, Uint8Array>([
        [main.name, main.bytes],
        ...extra.map((e) => [e.name, e.bytes] as [string, Uint8Array]),
      ]);
      loaded = { transcript: r.transcript, files: fileMap, mainName: main.name, lineStarts: new Map() };
      last = undefined;
      unchanged = undefined;
      calibrations.clear();
      const t = r.transcript;
      counting = startCounting(t, onProgress);
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
      const share = t.format === 'tierscope' ? shareInFile(main.bytes) : undefined;
      return {
        ok: true,
        fileName: main.name,
        format: t.format,
        originalFormat: t.meta.originalFormat,
        version: t.meta.version,
        title: t.meta.title,
        bytes: main.bytes.length,
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
        loadMs: performance.now() - t0,
        defaults: logDefaults(t),
        ...(share ? { share } : {}),
      };
    },

    async rows(threadId: string): Promise<Row[]> {
      const th = thread(threadId);
      if (!th) return [];
      const meter = await meterFor('o200k_base');
      const calls = indexToolCalls(th.messages);
      const responseOf = new Map<number, number>();
      for (const r of th.requests) if (r.responseEnd !== undefined) responseOf.set(r.inputEnd, r.index);
      return th.messages.map((m) => {
        const tools: string[] = [];
        const ids: string[] = [];
        let isError = false;
        for (const b of m.blocks) {
          if (b.type === 'tool_use') {
            tools.push(b.name);
            ids.push(b.id);
          } else if (b.type === 'tool_result') {
            tools.push(calls.get(b.toolUseId)?.name ?? 'unknown');
            ids.push(b.toolUseId);
            if (b.isError) isError = true;
          }
        }
        const peek = meter.peek(m);
        const row: Row = {
          index: m.index,
          role: m.role,
          tokens: peek.tokens,
          exact: peek.exact,
          tools,
          toolUseIds: ids,
          blockTypes: m.blocks.map((b) => b.type),
          preview: previewOf(m),
          isError,
          line: m.source.line,
        };
        if (m.compaction) row.compaction = m.compaction;
        if (m.meta) row.meta = true;
        if (m.time !== undefined) row.time = m.time;
        const req = responseOf.get(m.index);
        if (req !== undefined) row.request = req;
        return row;
      });
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
      await counting;
      if (runId < latestRun) return { runId, stale: true };
      const meter = await meterFor(settings.encoding);
      let cals = calibrations.get(settings.encoding);
      if (!cals) {
        cals = calibrateTranscript(loaded.transcript, meter);
        calibrations.set(settings.encoding, cals);
      }
      if (runId < latestRun) return { runId, stale: true };
      onProgress?.({ phase: 'replaying', fraction: 0.5 });
      const summarizer = summarizerFor(settings.config.summarizer, httpCache);
      const key = withoutPipelineKey(settings, settings.encoding);
      const analysis = analyze(loaded.transcript, {
        withoutPipeline: unchanged?.key === key ? unchanged.totals : true,
        config: settings.config,
        preset: settings.preset,
        mode: settings.mode,
        provider: settings.provider,
        tokenizer: meter.tokenizer,
        meter,
        summarizer,
        calibrations: cals,
        reportEvents: false,
        reportRows: false,
      });
      const made = analysis.cost.report.withoutPipeline;
      if (made) unchanged = { key, totals: made };
      const events: EventRow[] = [];
      const full: PipelineEvent[] = [];
      const timeline: TimelinePoint[] = [];
      const report = analysis.report;
      // The simulated timeline has one point per request in replay order; the observed one only requests
      // with usage, also in replay order: one cursor each.
      let k = 0;
      let obsAt = 0;
      for (const [ti, tr] of analysis.replay.threads.entries()) {
        const th = loaded.transcript.threads[ti];
        for (const q of tr.requests) {
          const usd = analysis.cost.byPoint[k];
          const sim = analysis.simulated[k++];
          const o = analysis.observed[obsAt];
          const obs = o && o.thread === tr.thread && o.index === q.index ? analysis.observed[obsAt++] : undefined;
          const cacheBreak = cacheBreakRow(sim, usd);
          const ids: number[] = q.events.length === 0 ? NO_IDS : [];
          for (const e of q.events) {
            ids.push(events.length);
            events.push(eventRow(e, events.length));
            full.push(e);
          }
          const req = th.requests[q.index];
          timeline.push({
            thread: tr.thread,
            index: q.index,
            time: q.time,
            model: q.model,
            inputTokens: q.inputTokens,
            outputTokens: q.outputTokens,
            estimateIn: q.estimateIn,
            estimateOut: q.estimateOut,
            estimate: estimateRow(tr.calibration.requests[q.index]),
            categories: q.categories,
            observed: req ? observedOf(req) : null,
            simulated: {
              cacheRead: Math.round(sim?.cacheRead ?? 0),
              cacheWrite: Math.round(sim?.cacheWrite ?? 0),
              prompt: Math.round(q.estimateOut),
            },
            costUsd: { recorded: usd?.recorded ?? null, simulated: usd?.simulated ?? null },
            observedBreak: observedBreakRow(obs, usd),
            cacheBreak: cacheBreak ? { ...cacheBreak, events: cacheBreak.events.map((k) => ids[k]) } : null,
            eventIds: ids,
            responseMessage: req?.inputEnd ?? 0,
          });
        }
      }
      last = { analysis, events, full, preset: settings.preset, tokenizer: meter.tokenizer };
      const c = settings.config;
      pendingCalls = summarizer instanceof CachedHttpSummarizer ? summarizer.pending.slice() : [];
      const pending = pendingCalls.length;
      return {
        runId,
        ms: performance.now() - t0,
        settings,
        totals: report.totals,
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
        pairing: analysis.replay.threads.flatMap((tr) => tr.requests.flatMap((q) => q.pairing)),
        refetches: report.refetches,
        pendingSummaries: pending,
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
      const raw = m.source.path || lines.length === 0 ? null : rawLines(file, lines);
      return {
        thread: threadId,
        index: messageIndex,
        normalized: clippedJson(m),
        raw,
        line: m.source.line,
        path: m.source.path,
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
      return counting;
    },

    async report() {
      if (!last || !loaded) return null;
      return withRows(loaded.transcript, last.analysis, {
        tokenizer: last.tokenizer,
        preset: last.preset,
        reportEvents: false,
      });
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
  };
  return engine;
}
