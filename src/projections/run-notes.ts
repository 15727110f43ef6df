// A run's per-message notes, asked for by window instead of sent whole (issue 30): the transcript shows the tool
// results and rewrite events of the ~60 rows on screen, so the worker keeps the run's rows made on read and answers
// a window [from, to) of one thread from an index built once per thread on first ask (a window costs what it
// returns). The reply carries only what needs the whole run: which tiers and marks occur (the legend) and counts.
import type { Analysis } from '../analyses/analyze.ts';
import { MarksTally, type ResultMarks, type ToolResultRow } from '../analyses/report.ts';
import { type Items, itemsOf } from '../lib/made-on-read.ts';
import { firstIndex } from '../lib/search.ts';
import type { Transcript } from '../model/transcript.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import type { EventRow, RunTimeline } from './timeline.ts';

/** One window of one thread's notes (EngineApi.notes). */
export type WindowNotes = {
  runId: number;
  thread: string;
  from: number;
  to: number;
  /** The tool-result rows of messages in [from, to), in the run's row order. */
  results: ToolResultRow[];
  /** The event rows whose message is in [from, to), by message then id. */
  events: EventRow[];
  /** Hard-cap drops that start before `from` and reach into the window (a dropped message's Diff), by id. */
  drops: EventRow[];
  /** Only these messages of the window (ascending; the rows a search filter shows), when asked so. */
  only?: number[];
};

/** What the legend and the counts need of every tool result and event of the run (sent with the result). */
export type NoteKinds = ResultMarks & { results: number; events: number };

/** The summaries the http summarizer wrote in a run (the summarizer settings list up to `SHOWN` of them). */
export type SummaryOutputs = { results: number; turns: number; shown: EventRow[] };
const SHOWN = 40;

/** Events of one thread that name a message, sorted by message then id, and its drops sorted by id. */
type ThreadEvents = { ids: Int32Array; at: Int32Array; drops: number[] };

export class RunNotes {
  private readonly threadOrder = new Map<string, number>();
  private readonly byThread = new Map<string, ThreadEvents>();

  constructor(
    threads: readonly string[],
    private readonly rows: Items<ToolResultRow> | readonly ToolResultRow[],
    private readonly full: readonly PipelineEvent[],
    private readonly eventRows: Items<EventRow>,
  ) {
    for (const [i, id] of threads.entries()) this.threadOrder.set(id, i);
  }

  private row(i: number): ToolResultRow {
    const r = this.rows;
    return Array.isArray(r) ? r[i] : (r as Items<ToolResultRow>).at(i);
  }

  /** The event row `id`, or undefined past the run's events. */
  event(id: number): EventRow | undefined {
    return Number.isInteger(id) && id >= 0 && id < this.full.length ? this.eventRows.at(id) : undefined;
  }

  /** The first event equal to `like` in what it did (event ids are per run: the detail follows a selection). */
  findEvent(like: Omit<EventRow, 'id'>): number | null {
    const f = this.full;
    for (let i = 0; i < f.length; i++) {
      const e = f[i];
      if (
        e.thread === like.thread &&
        e.request === like.request &&
        e.stage === like.stage &&
        e.action === like.action &&
        e.messageIndex === like.messageIndex &&
        e.blockIndex === like.blockIndex &&
        e.toolUseId === like.toolUseId
      )
        return i;
    }
    return null;
  }

  private threadEvents(thread: string): ThreadEvents {
    let te = this.byThread.get(thread);
    if (!te) {
      const list: number[] = [];
      const drops: number[] = [];
      for (let i = 0; i < this.full.length; i++) {
        const e = this.full[i];
        if (e.thread !== thread) continue;
        if (e.action === 'drop') drops.push(i);
        if (e.messageIndex >= 0) list.push(i);
      }
      const f = this.full;
      list.sort((a, b) => f[a].messageIndex - f[b].messageIndex || a - b);
      te = { ids: Int32Array.from(list), at: Int32Array.from(list, (i) => f[i].messageIndex), drops };
      this.byThread.set(thread, te);
    }
    return te;
  }

  /** The notes of messages [from, to) of `thread`, or of just the messages `only` lists (ascending, within the
   *  window: a search filter's rows on screen can span most of a thread). Tool-result rows are in thread order
   *  and, within a thread, in message order (report.ts staticRowsOf): found by binary search, no row made outside
   *  what is asked. */
  window(runId: number, thread: string, from: number, to: number, only?: readonly number[]): WindowNotes {
    const out: WindowNotes = { runId, thread, from, to, results: [], events: [], drops: [] };
    const runs = only ? only.filter((m) => m >= from && m < to) : undefined;
    if (runs) out.only = runs;
    const ti = this.threadOrder.get(thread);
    if (ti === undefined || to <= from) return out;
    // Contiguous messages [a, b): the whole window, or each message the filter shows.
    const spans: [number, number][] = runs ? runs.map((m) => [m, m + 1]) : [[from, to]];
    const n = this.rows.length;
    const before = (i: number, m: number) => {
      const r = this.row(i);
      const rt = this.threadOrder.get(r.thread) ?? -1;
      return rt < ti || (rt === ti && r.messageIndex < m);
    };
    const te = this.threadEvents(thread);
    const at = te.at;
    for (const [a, b] of spans) {
      for (let i = firstIndex(n, (k) => !before(k, a)); i < n; i++) {
        const r = this.row(i);
        if (r.thread !== thread || r.messageIndex >= b) break;
        out.results.push(r);
      }
      for (let k = firstIndex(at.length, (x) => at[x] >= a); k < at.length && at[k] < b; k++)
        out.events.push(this.eventRows.at(te.ids[k]));
    }
    for (const id of te.drops) {
      const e = this.full[id];
      const last = e.lastMessageIndex ?? e.messageIndex;
      // A drop that starts at a message not asked for (else it is among that message's events) and reaches the
      // first asked message after its start: that message's Diff.
      if (!runs) {
        if (e.messageIndex < from && last >= from) out.drops.push(this.eventRows.at(id));
        continue;
      }
      const j = firstIndex(runs.length, (x) => runs[x] >= e.messageIndex);
      const starts = runs[j] === e.messageIndex;
      const next = runs[starts ? j + 1 : j];
      if (!starts && next !== undefined && last >= next) out.drops.push(this.eventRows.at(id));
    }
    return out;
  }

  /** Which tiers and marks occur in the run's tool results, and how many results and events it has. */
  kinds(): NoteKinds {
    const counts = { results: this.rows.length, events: this.full.length };
    const made = this.rows as Partial<{ marks(): ResultMarks }>;
    if (typeof made.marks === 'function') return { ...made.marks(), ...counts };
    const m = new MarksTally();
    for (let i = 0; i < this.rows.length; i++) m.addRow(this.row(i));
    return { ...m.marks(), ...counts };
  }

  /** The http summarizer's outputs of the run: tool-result and turn summaries, the first `SHOWN` as rows. */
  summaries(): SummaryOutputs {
    const out: SummaryOutputs = { results: 0, turns: 0, shown: [] };
    for (let i = 0; i < this.full.length; i++) {
      const a = this.full[i].action;
      if (a !== 'tier2-summary' && a !== 'summarize') continue;
      if (a === 'tier2-summary') out.results++;
      else out.turns++;
      if (out.shown.length < SHOWN) out.shown.push(this.eventRows.at(i));
    }
    return out;
  }
}

/** The notes of a run of `t`: its report's tool-result rows (made on read) and its timeline's events. */
export function runNotes(t: Transcript, analysis: Analysis, shown: RunTimeline): RunNotes {
  const report = analysis.report;
  const rows = itemsOf<ToolResultRow>(report, 'toolResults') ?? report.toolResults;
  return new RunNotes(
    t.threads.map((th) => th.id),
    rows,
    shown.full,
    shown.events,
  );
}
