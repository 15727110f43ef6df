// What the engine holds between calls: the loaded transcript and its files (re-read for raw lines), a followed
// session's lines, the run memos per encoding (analyses/run-memo.ts: every run-to-run memo lives there, all dropped
// when another transcript loads), exact counting per encoding, tokenizers for the engine's life, the last run (for
// diffs, the report and the compaction view) and the counters that drop stale loads and runs.
import type { Analysis } from '../../src/analyses/analyze.ts';
import { RunMemo } from '../../src/analyses/run-memo.ts';
import type { HeldLines } from '../../src/formats/index.ts';
import type { SqliteOpener } from '../../src/formats/sqlite.ts';
import type { ByteSource } from '../../src/formats/types.ts';
import type { Thread, Transcript } from '../../src/model/transcript.ts';
import type { PipelineEvent } from '../../src/pipeline/stage.ts';
import { tier1StubTexts } from '../../src/pipeline/stub-texts.ts';
import type { HttpCall, SummaryOutcome } from '../../src/pipeline/summarizer.ts';
import type { RunNotes } from '../../src/projections/run-notes.ts';
import type { TimelinePoints } from '../../src/projections/timeline.ts';
import { carries } from '../../src/replay/cache.ts';
import { type CountEndpoint, inlineEndpoint } from '../../src/tokens/count-pool.ts';
import { countTranscript } from '../../src/tokens/count-transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { type CachedTokenizer, createTokenizer, type EncodingName, loadCounter } from '../../src/tokens/tokenizer.ts';
import type { CountStatus, LoadProgress, RunSettings } from '../api.ts';

export type EngineOptions = {
  /** Counting pool transport (browser workers); without it counting runs in this thread. */
  endpoints?: () => CountEndpoint[];
  /** Told after each run how many requests it ran through the pipeline (tests and the bench: the work a followed
   *  session's growth costs, which reuse and resumption keep to the new requests). */
  onReplayed?: (requests: number) => void;
  /** Loads the SQLite engine (sql.js) the first time a database (opencode.db) is opened or scanned. */
  sqlite?: () => Promise<SqliteOpener>;
  /** Opens a file on disk named by a `{ path }` LoadFile (Node hosts: the bench, tests), read slice by slice like
   *  the page's File; without it the engine refuses such a file (the worker has no file system). */
  openPath?: (path: string) => ByteSource;
};

export type Loaded = {
  transcript: Transcript;
  /** The loaded files, read again slice by slice for raw-line views (never held whole when they came as Blobs). */
  files: Map<string, ByteSource>;
  mainName: string;
  lineStarts: Map<string, Float64Array>;
};

/** What the last run leaves for the calls after it (report, compaction, probes, diff): not its event rows, which
 *  went to the page with the result (~5 MB at 20,000 requests kept for nothing). */
export type LastRun = {
  /** The run's id: a point, a window of notes or event rows asked for another run is stale (null). */
  runId: number;
  analysis: Analysis;
  /** The run's events with their blocks (diffs), ids by position as the page got them. */
  full: PipelineEvent[];
  preset: string | null;
  memo: RunMemo;
  settings: RunSettings;
  /** The run's timeline (the page asks for a shown point in full: `point`). */
  points: TimelinePoints;
  /** Its tool-result and event rows by window and by id (projections/run-notes.ts). */
  notes: RunNotes;
};

export class EngineState {
  loaded: Loaded | undefined;
  /** The lines of a followed session's main file (by the name it was sent under) and of its sub-agent files (by
   *  theirs), for its next growth. */
  held: { name: string; lines: HeldLines; extras: Map<string, HeldLines> } | undefined;
  /** The loaded session is followed: its run memos keep their replays running for its next growth. */
  following = false;
  /** The run memo of the loaded transcript per encoding, made on first use (concurrent callers share it). */
  readonly memos = new Map<EncodingName, Promise<RunMemo>>();
  /** Exact counting of the loaded transcript per encoding: the load's encoding starts as it loads, another when a
   *  run or the rows first ask for it. Rows and runs of one encoding show the same counts. */
  readonly countings = new Map<EncodingName, Promise<CountStatus>>();
  /** The encoding the load was asked to count with (what rows show unless asked for another). */
  loadEncoding: EncodingName = 'o200k_base';
  /** Answers of the http summarizer, by call key; and the calls the last run could not answer from them. */
  readonly httpCache = new Map<string, SummaryOutcome>();
  pendingCalls: HttpCall[] = [];
  last: LastRun | undefined;
  latestRun = 0;
  /** Loads started, and the newest one cancelled (cancelLoad): a cancelled load never replaces what is loaded; a
   *  load overtaken by a newer one while it read its input is dropped, so what the engine holds is always what the
   *  page asked for last (the page drops that reply too: state/store.ts). */
  loads = 0;
  cancelledLoad = 0;
  /** One tokenizer per encoding for the engine's life (its rank tables are costly to build; its counts are by
   *  content hash, valid for any transcript). */
  private readonly tokenizers = new Map<EncodingName, Promise<CachedTokenizer>>();
  private sqliteLoaded: Promise<SqliteOpener> | undefined;

  constructor(readonly options: EngineOptions) {}

  /** The SQLite engine, loaded on first use; undefined when this engine has none. */
  get sqlite(): (() => Promise<SqliteOpener>) | undefined {
    const load = this.options.sqlite;
    if (!load) return undefined;
    return () => {
      this.sqliteLoaded ??= load();
      return this.sqliteLoaded;
    };
  }

  tokenizerFor(enc: EncodingName): Promise<CachedTokenizer> {
    let p = this.tokenizers.get(enc);
    if (!p) {
      p = createTokenizer(enc);
      this.tokenizers.set(enc, p);
    }
    return p;
  }

  /** The run memo of `t` for `enc`, made on first use (concurrent callers share it). */
  memoFor(t: Transcript, enc: EncodingName): Promise<RunMemo> {
    let p = this.memos.get(enc);
    if (!p) {
      const keepRuns = this.following;
      p = this.tokenizerFor(enc).then((tok) => {
        const memo = new RunMemo(t, new TokenMeter(tok));
        memo.keepRuns = keepRuns;
        return memo;
      });
      this.memos.set(enc, p);
    }
    return p;
  }

  /** A load replaced the transcript: a growth of the last one (`grown`) carries its memos over where they hold,
   *  anything else starts afresh. */
  replaceMemos(t: Transcript, grown: boolean): void {
    const kept = grown ? [...this.memos] : [];
    this.memos.clear();
    for (const [enc, before] of kept)
      this.memos.set(
        enc,
        before.then((c) => grownMemo(c, t)),
      );
  }

  countingFor(enc: EncodingName, onProgress?: (p: LoadProgress) => void): Promise<CountStatus> {
    let p = this.countings.get(enc);
    if (!p) {
      p = this.loaded
        ? this.startCounting(this.loaded.transcript, enc, onProgress)
        : Promise.resolve({ done: true, fraction: 1 });
      this.countings.set(enc, p);
    }
    return p;
  }

  private async startCounting(
    t: Transcript,
    enc: EncodingName,
    onProgress?: (p: LoadProgress) => void,
  ): Promise<CountStatus> {
    const memo = await this.memoFor(t, enc);
    const endpoints = this.options.endpoints ?? (() => [inlineEndpoint(() => loadCounter(enc))]);
    const stats = await countTranscript(
      t,
      memo.meter,
      enc,
      endpoints,
      (p) =>
        onProgress?.({
          phase: 'counting',
          fraction: p.totalChars > 0 ? p.chars / p.totalChars : 1,
          detail: `${p.done}/${p.total} batches`,
        }),
      () => tier1StubTexts(t, memo.pipeline.runes),
    );
    onProgress?.({ phase: 'counting', fraction: 1, detail: 'exact counts ready' });
    return { done: true, fraction: 1, ms: stats.ms, pooled: stats.pooled };
  }

  thread(id: string): Thread | undefined {
    return this.loaded?.transcript.threads.find((t) => t.id === id);
  }
}

/** The run memo of `t`, a growth of the transcript `c` was made for: carried over when its memos hold. */
function grownMemo(c: RunMemo, t: Transcript): RunMemo {
  if (carries(c, t)) return new RunMemo(t, c.meter, undefined, c);
  const fresh = new RunMemo(t, new TokenMeter(c.meter.tokenizer));
  fresh.keepRuns = true;
  return fresh;
}
