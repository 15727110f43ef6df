// Token counts of summary drafts, kept for a run (PipelineMemo). Planning a summary measures a draft per
// candidate cut; a draft is determined by the summarizer, the summary number, the span of requests, the previous
// summary's index and the folded messages, which re-runs share by identity (unchanged and identically rewritten
// messages are the same objects), so a re-run neither renders nor counts a draft it measured before (at 20,000
// requests the artifact sections run to hundreds of KB).
import type { ArtifactIndex } from './artifacts.ts';

/** A measured draft: the folded messages' hash and count, the request span, and its tokens. */
export type Draft = { h1: number; h2: number; n: number; first: number; last: number; tokens: number };

/** The drafts of one plan's context (thread, summarizer, number, previous index), bucketed by hash. */
export type DraftBucket = Map<number, Draft[]>;

/** Drafts kept before the memo starts over (each is a few numbers). */
const MAX_DRAFTS = 50_000;

export class SummaryDrafts {
  private readonly byContext = new Map<string, DraftBucket>();
  private size = 0;
  /** A merged index → what it was made of (its base's key and the folded messages), so the next summary's
   *  drafts, which merge into it, key the same on every re-run although the index is a new object. */
  private readonly indexKeys = new WeakMap<ArtifactIndex, string>();
  /** Objects numbered by identity (an index without a key). */
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;

  /** The bucket of a plan's context. Bound: MAX_DRAFTS drafts in all, then it starts over. */
  bucket(context: string): DraftBucket {
    if (this.size >= MAX_DRAFTS) {
      this.byContext.clear();
      this.size = 0;
    }
    let b = this.byContext.get(context);
    if (!b) {
      b = new Map();
      this.byContext.set(context, b);
    }
    return b;
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
    this.size++;
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

  /** Record what a merged index was made of. */
  setKey(index: ArtifactIndex, key: string): void {
    this.indexKeys.set(index, key);
  }
}
