// Token counts of summary drafts, kept for a run (PipelineMemo). Planning a summary measures a draft per
// candidate cut; a draft is determined by the summarizer, the summary number, the span of requests, the previous
// summary's index and the folded messages, which re-runs share by identity (unchanged and identically rewritten
// messages are the same objects), so a re-run neither renders nor counts a draft it measured before (at 20,000
// requests the artifact sections run to hundreds of KB).
import { getOrInsert } from '../lib/maps.ts';
import { RoundMap } from '../lib/rounds.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { type Artifact, type ArtifactIndex, itemLine, sectionTokens } from './artifacts.ts';

/** The first line of a pipeline summary (without its "\n"). */
export function summaryHeader(n: number, first: number, last: number, summarizer: string): string {
  return `[Summary #${n} of earlier conversation (requests ${first}–${last}), written by the ${summarizer} summarizer]`;
}

/** A measured draft: the folded messages' hash and count, the request span, and its tokens. */
export type Draft = { h1: number; h2: number; n: number; first: number; last: number; tokens: number };

/** The drafts of one plan's context (thread, summarizer, number, previous index), bucketed by hash. */
export type DraftBucket = Map<number, Draft[]>;

/** Lines and chains kept before those memos start over. */
const MAX_DRAFTS = 50_000;

/** Replays of a thread whose drafts are kept: the run's and the two before, so a drag back and forth between two
 *  values measures nothing twice (a step shares most of its summaries with the step before). Kept in total instead
 *  (50,000 drafts), they held ~25 MB more live at 20,000 requests. */
const DRAFT_ROUNDS = 3;

const newRounds = (): RoundMap<string, DraftBucket> => new RoundMap(DRAFT_ROUNDS);
const newBucket = (): DraftBucket => new Map();

export class SummaryDrafts {
  /** Thread id → its drafts by plan context, those its last DRAFT_ROUNDS replays measured (nextRound). Bound: a
   *  replay's drafts (a run measures a few per summary), DRAFT_ROUNDS replays per thread. */
  private readonly byThread = new Map<string, RoundMap<string, DraftBucket>>();
  /** A merged index → what it was made of (its base's key and the folded messages), so the next summary's
   *  drafts, which merge into it, key the same on every re-run although the index is a new object. */
  private readonly indexKeys = new WeakMap<ArtifactIndex, string>();
  /** What an index was made of → a short key: a chain of summaries would otherwise key each one by the whole
   *  chain before it, a string (hashed per plan) as long as the thread's summaries are many. Bound: one entry
   *  per distinct summary made, MAX_DRAFTS, then it starts over. */
  private readonly chains = new Map<string, string>();
  private nextChain = 0;
  /** Objects numbered by identity (an index without a key). */
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  /** An item of an index → tokens of its rendered line with its "\n" (one encoding per memo). Bound: the items
   *  alive. */
  private readonly itemLines = new WeakMap<Artifact, number>();
  /** A line that renders no item (a section title, `- (none)`, a last line without its "\n") → its tokens. Bound:
   *  the titles, and a summary's last line each. */
  private readonly otherLines = new Map<string, number>();

  private other(meter: TokenMeter, line: string): number {
    let n = this.otherLines.get(line);
    if (n === undefined) {
      n = meter.text(line);
      if (this.otherLines.size >= MAX_DRAFTS) this.otherLines.clear();
      this.otherLines.set(line, n);
    }
    return n;
  }

  /** A draft's tokens (its header and sections, no prose): a plan measures one per candidate cut it has not measured
   *  before (summarize.ts). */
  draft(meter: TokenMeter, n: number, first: number, last: number, summarizer: string, index: ArtifactIndex): number {
    return this.headTokens(meter, n, first, last, summarizer, '') + this.sectionTokens(meter, index);
  }

  /**
   * Tokens of a summary's head — `summaryHeader(…)`, "\n", and the prose with its "\n" when there is prose — from
   * its parts' counts. In both encodings' pre-tokenizers a run of digits after "#", " " or "–" is a piece of its own
   * (three digits at most, none reaching across what follows them: " of", "–", "),"), so the header's count is its
   * fixed texts' and its numbers' counts summed (test/pipeline/summary-drafts.test.ts checks it against counting it
   * whole); the break before prose that starts with neither whitespace nor "/" is a safe cut (tokens/line-units.ts).
   */
  headTokens(meter: TokenMeter, n: number, first: number, last: number, summarizer: string, prose: string): number {
    const header =
      this.other(meter, '[Summary #') +
      this.other(meter, String(n)) +
      this.other(meter, ' of earlier conversation (requests ') +
      this.other(meter, String(first)) +
      this.other(meter, '–') +
      this.other(meter, String(last)) +
      this.other(meter, `), written by the ${summarizer} summarizer]\n`);
    if (prose === '') return header;
    if (prose.startsWith('/')) return meter.text(`${summaryHeader(n, first, last, summarizer)}\n${prose}\n`);
    return header + meter.text(`${prose}\n`);
  }

  /** Tokens of the rendered sections of `index`, from its lines' counts (artifacts.ts sectionTokens), each item's
   *  kept by the item's identity: a draft is neither rendered nor hashed whole. */
  sectionTokens(meter: TokenMeter, index: ArtifactIndex): number {
    return sectionTokens(
      index,
      (line) => this.other(meter, line),
      (a) => {
        let k = this.itemLines.get(a);
        if (k === undefined) {
          k = meter.text(`${itemLine(a)}\n`);
          this.itemLines.set(a, k);
        }
        return k;
      },
    );
  }

  /** A new replay of `thread` begins: its drafts older than the last DRAFT_ROUNDS replays go. */
  nextRound(thread: string): void {
    this.byThread.get(thread)?.nextRound();
  }

  /** The bucket of a plan's context in `thread`. */
  bucket(thread: string, context: string): DraftBucket {
    return getOrInsert(getOrInsert(this.byThread, thread, newRounds), context, newBucket);
  }

  find(bucket: DraftBucket, d: Omit<Draft, 'tokens'>): Draft | undefined {
    const list = bucket.get(d.h1 & 0x3fffffff);
    if (list)
      for (const x of list)
        if (x.h1 === d.h1 && x.h2 === d.h2 && x.n === d.n && x.first === d.first && x.last === d.last) return x;
    return undefined;
  }

  keep(bucket: DraftBucket, d: Draft): void {
    const k = d.h1 & 0x3fffffff;
    const list = bucket.get(k);
    if (list) list.push(d);
    else bucket.set(k, [d]);
  }

  /** The key of an index: what it was made of, or its identity. */
  keyOf(index: ArtifactIndex): string {
    const k = this.indexKeys.get(index);
    if (k !== undefined) return k;
    let id = this.ids.get(index);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(index, id);
    }
    return `#${id}`;
  }

  /** Record what a merged index was made of (`made`: its base's key and what was folded into it). */
  setKey(index: ArtifactIndex, made: string): void {
    let key = this.chains.get(made);
    if (key === undefined) {
      key = `~${this.nextChain++}`; // never reused: an index keyed before a clear keeps its key
      if (this.chains.size >= MAX_DRAFTS) this.chains.clear();
      this.chains.set(made, key);
    }
    this.indexKeys.set(index, key);
  }
}
