// Minimize a reproduction (SPEC §7): delta debugging (Zeller's ddmin) over removable units (reduce.ts) that
// keeps a predicate true, yielding the smallest transcript that still shows the failure. Built to run in the
// worker: async, yields to the event loop so a cancel message gets through, reports progress, stops on an
// AbortSignal-like flag or after a budget of predicate evaluations — always with the best result so far.
import type { Transcript } from '../model/transcript.ts';
import type { Witness } from './predicate.ts';
import { Reducer, type Unit } from './reduce.ts';

export type Tester = (t: Transcript) => Witness | null | Promise<Witness | null>;

export type MinimizeProgress = {
  evaluations: number;
  maxEvaluations: number;
  /** Units (and messages) in the best reproduction so far. */
  units: number;
  messages: number;
  totalUnits: number;
  /** ddmin's current number of chunks. */
  granularity: number;
};

export type MinimizeOptions = {
  /** Predicate evaluations allowed (each is a full analysis); default 1000. */
  maxEvaluations?: number;
  /** Stop early (an AbortSignal works); the best result so far is returned. */
  signal?: { readonly aborted: boolean };
  onProgress?: (p: MinimizeProgress) => void;
  /** Hand control back to the event loop; default: a macrotask once ~10 ms of work has passed. */
  yieldControl?: () => Promise<void>;
};

export type Size = { threads: number; messages: number; requests: number };

export type MinimizeResult =
  | {
      ok: true;
      /** `minimal`: no single unit can go; `budget`/`cancelled`: stopped early with the best so far. */
      status: 'minimal' | 'budget' | 'cancelled';
      transcript: Transcript;
      witness: Witness;
      evaluations: number;
      before: Size;
      after: Size;
    }
  | { ok: false; error: string; evaluations: number };

function sizeOf(t: Transcript): Size {
  let messages = 0;
  let requests = 0;
  for (const th of t.threads) {
    messages += th.messages.length;
    requests += th.requests.length;
  }
  return { threads: t.threads.length, messages, requests };
}

function defaultYield(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < 10) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    last = performance.now();
  };
}

class Stop extends Error {
  constructor(readonly status: 'budget' | 'cancelled') {
    super(status);
  }
}

/** Split `xs` into `n` nearly equal contiguous chunks. */
function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const size = Math.floor(xs.length / n) + (i < xs.length % n ? 1 : 0);
    out.push(xs.slice(at, at + size));
    at += size;
  }
  return out.filter((c) => c.length > 0);
}

/** The smallest transcript (in units) for which `test` still finds a witness. */
export async function minimize(t: Transcript, test: Tester, o: MinimizeOptions = {}): Promise<MinimizeResult> {
  const max = Math.max(1, o.maxEvaluations ?? 1000);
  const yieldControl = o.yieldControl ?? defaultYield();
  const reducer = new Reducer(t);
  const seen = new Map<string, Witness | null>();
  let evaluations = 0;
  let best: Unit[] = reducer.units;
  let bestWitness: Witness | null = null;
  let granularity = 2;

  const progress = () =>
    o.onProgress?.({
      evaluations,
      maxEvaluations: max,
      units: best.length,
      messages: reducer.messageCount(best),
      totalUnits: reducer.units.length,
      granularity,
    });

  const holds = async (kept: Unit[]): Promise<Witness | null> => {
    const key = kept.map((u) => u.id).join(',');
    const known = seen.get(key);
    if (known !== undefined) return known;
    if (o.signal?.aborted) throw new Stop('cancelled');
    if (evaluations >= max) throw new Stop('budget');
    await yieldControl();
    if (o.signal?.aborted) throw new Stop('cancelled');
    evaluations++;
    const w = await test(reducer.build(kept));
    seen.set(key, w);
    if (w && kept.length < best.length) {
      best = kept;
      bestWitness = w;
    }
    progress();
    return w;
  };

  const first = await test(t);
  evaluations = 1;
  if (!first) return { ok: false, error: 'the predicate does not hold on the input', evaluations };
  bestWitness = first;
  seen.set(best.map((u) => u.id).join(','), first);

  let status: 'minimal' | 'budget' | 'cancelled' = 'minimal';
  try {
    let cur = best;
    while (cur.length >= 2) {
      const parts = chunks(cur, Math.min(granularity, cur.length));
      let next: Unit[] | undefined;
      for (const part of parts) {
        if (await holds(part)) {
          next = part;
          granularity = 2;
          break;
        }
      }
      if (!next && parts.length > 2) {
        for (const part of parts) {
          const complement = cur.filter((u) => !part.includes(u));
          if (await holds(complement)) {
            next = complement;
            granularity = Math.max(granularity - 1, 2);
            break;
          }
        }
      }
      if (next) {
        cur = next;
        continue;
      }
      if (granularity >= cur.length) break;
      granularity = Math.min(cur.length, granularity * 2);
    }
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    status = e.status;
  }
  const transcript = best === reducer.units ? t : reducer.build(best);
  return {
    ok: true,
    status,
    transcript,
    witness: bestWitness ?? first,
    evaluations,
    before: sizeOf(t),
    after: sizeOf(transcript),
  };
}
