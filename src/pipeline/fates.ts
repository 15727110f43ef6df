// What the pipeline did to each tool result of a thread, read once out of the stages' final states at the end of
// a replay (SPEC §4): the one record the report, the re-fetch classifier, the worker and the tests read. The
// stages' interned tool-id numbers, typed arrays and bit flags stay here, inside pipeline/. Kept in columns (one
// row a result, typed arrays) and read as a Map by tool_use id: a ResultFate is made when asked for. As objects
// in a Map they were ~230 bytes a result, every replay (7.7 MB at 34,000 results), replaced on every run. A reader
// that walks a thread's results in order (the report's rows) or keeps a result's row (the re-fetches) reads the
// columns by row: no id looked up, no object made.

import type { SiteTable } from './result-sites.ts';
import type { PipelineEvent } from './stage.ts';
import type { StageStates } from './stages/index.ts';
import { SPILLED } from './stages/spill.ts';
import { inTier3, tierRecord } from './stages/tiers.ts';

/** Rewrites that lose a result's content (a truncation or spill keeps part of it, or a way back). */
export const LOSSY: ReadonlySet<string> = new Set(['tier1', 'tier2-summary', 'clear', 'elide']);

type ResultFate = {
  toolUseId: string;
  /** Thread message index of the result (its first occurrence). */
  messageIndex: number;
  /** The tier it got at its first touch (1 or 2), 3 when it sat in the Tier-3 window while tiering ran. */
  tier: 1 | 2 | 3 | null;
  firstTouchRequest: number | null;
  distanceAtFirstTouch: number | null;
  /** Its tool is on the floor list (never below Tier 2). */
  floor: boolean;
  spilled: boolean;
  /** Tier 2 by a summary (not a truncation). */
  summarized: boolean;
  /** Cleared by microcompact. */
  cleared: boolean;
  /** The request whose summary folded its message in, if one did. */
  foldedAt: number | null;
  /** The request whose hard cap dropped it, if one did. */
  droppedAt: number | null;
  /** Its size in runes after its last rewrite; null when never rewritten (it keeps its own size). */
  finalChars: number | null;
  /** The first request that lost its content, and how (a lossy rewrite, a fold into a summary, a drop). */
  lostBy: { request: number; how: string } | null;
};

/** What the replay tracked per tool id number beside the stage states. */
export type RewriteTrail = {
  /** By tool id number: runes after the last rewrite, −1 when never rewritten. */
  lastChars: Int32Array;
  /** By tool id number: the first LOSSY rewrite. */
  losses: readonly (PipelineEvent | undefined)[];
};

const REC = 1;
const FLOOR = 2;
const SPILLED_FLAG = 4;
const SUMMARIZED = 8;
const CLEARED = 16;
const TIER3 = 32;
/** How a result lost its content (`lostBy`): none, a LOSSY rewrite (its event), a fold, a drop. */
const LOST_NONE = 0;
const LOST_EVENT = 1;
const LOST_FOLD = 2;
const LOST_DROP = 3;

/** A column's value, −1 read as null. */
const orNull = (v: number): number | null => (v >= 0 ? v : null);

/** The fates of a thread's results: by tool_use id as a Map, and by row (a result's place among its thread's
 *  results, first occurrence, thread order: the order of `keys()`) without an object. */
export interface ResultFates extends ReadonlyMap<string, ResultFate> {
  /** The row of `id`'s result, −1 when the thread has none; `hint` (a row the caller kept or expects) is tried
   *  first, checked by id. */
  rowOf(id: string, hint?: number): number;
  /** The tool_use id of row `i`. */
  idAt(i: number): string;
  tier(i: number): ResultFate['tier'];
  firstTouchRequest(i: number): number | null;
  distanceAtFirstTouch(i: number): number | null;
  floor(i: number): boolean;
  spilled(i: number): boolean;
  summarized(i: number): boolean;
  cleared(i: number): boolean;
  foldedAt(i: number): number | null;
  droppedAt(i: number): number | null;
  finalChars(i: number): number | null;
  /** The request of `lostBy`, −1 when the result kept its content. */
  lostAt(i: number): number;
  /** How it was lost (`lostBy.how`); only for a row with `lostAt(i) >= 0`. */
  lostHow(i: number): string;
}

/** The fates of a thread's result sites, one row a site in thread order (−1: null in the request columns). */
class FateColumns implements ResultFates {
  readonly #table: SiteTable;
  readonly #tier: Uint8Array;
  readonly #flags: Uint8Array;
  /** The first touch's request and distance (rows with REC). */
  readonly #touch: Int32Array;
  readonly #distance: Int32Array;
  readonly #folded: Int32Array;
  readonly #dropped: Int32Array;
  readonly #chars: Int32Array;
  readonly #lostHow: Uint8Array;
  readonly #lostAt: Int32Array;
  /** By row: the LOSSY event that lost it (LOST_EVENT rows only). */
  readonly #lostEvent: (PipelineEvent | undefined)[];

  constructor(table: SiteTable, states: StageStates, trail: RewriteTrail) {
    const { tiers, spill, microcompact, summarize, hardcap } = states;
    const n = table.sites.length;
    this.#table = table;
    this.#tier = new Uint8Array(n);
    this.#flags = new Uint8Array(n);
    this.#touch = new Int32Array(n);
    this.#distance = new Int32Array(n);
    this.#folded = new Int32Array(n);
    this.#dropped = new Int32Array(n);
    this.#chars = new Int32Array(n);
    this.#lostHow = new Uint8Array(n);
    this.#lostAt = new Int32Array(n);
    this.#lostEvent = [];
    table.sites.forEach((s, i) => {
      const rec = tierRecord(tiers, s.n);
      const foldedAt = summarize.folded[s.messageIndex] ?? -1;
      const droppedAt = hardcap.dropped.get(s.toolUseId) ?? -1;
      let flags = 0;
      if (rec) {
        flags |= REC;
        this.#tier[i] = rec.tier;
        this.#touch[i] = rec.request;
        this.#distance[i] = rec.distance;
        if (rec.floor) flags |= FLOOR;
        if (rec.summarized) flags |= SUMMARIZED;
      } else if (inTier3(tiers, s.n)) flags |= TIER3;
      if (s.n < spill.seen.length && spill.seen[s.n] === SPILLED) flags |= SPILLED_FLAG;
      if (microcompact.cleared.has(s.toolUseId)) flags |= CLEARED;
      this.#flags[i] = flags;
      this.#folded[i] = foldedAt;
      this.#dropped[i] = droppedAt;
      this.#chars[i] = s.n < trail.lastChars.length ? trail.lastChars[s.n] : -1;
      const e = trail.losses[s.n];
      let how = e ? LOST_EVENT : LOST_NONE;
      let at = e ? e.request : -1;
      if (foldedAt >= 0 && (how === LOST_NONE || at > foldedAt)) {
        how = LOST_FOLD;
        at = foldedAt;
      }
      if (droppedAt >= 0 && (how === LOST_NONE || at > droppedAt)) {
        how = LOST_DROP;
        at = droppedAt;
      }
      this.#lostHow[i] = how;
      this.#lostAt[i] = at;
      if (how === LOST_EVENT) this.#lostEvent[i] = e;
    });
  }

  get size(): number {
    return this.#table.sites.length;
  }

  rowOf(id: string, hint = -1): number {
    if (hint >= 0 && hint < this.size && this.idAt(hint) === id) return hint;
    const n = this.#table.ids.get(id);
    return n === undefined || n >= this.#table.siteOf.length ? -1 : this.#table.siteOf[n];
  }

  has(id: string): boolean {
    return this.rowOf(id) >= 0;
  }

  get(id: string): ResultFate | undefined {
    const i = this.rowOf(id);
    return i < 0 ? undefined : this.#fate(i);
  }

  idAt(i: number): string {
    return this.#table.sites[i].toolUseId;
  }

  tier(i: number): ResultFate['tier'] {
    const flags = this.#flags[i];
    return (flags & REC) !== 0 ? (this.#tier[i] as 1 | 2) : (flags & TIER3) !== 0 ? 3 : null;
  }

  firstTouchRequest(i: number): number | null {
    return (this.#flags[i] & REC) !== 0 ? this.#touch[i] : null;
  }

  distanceAtFirstTouch(i: number): number | null {
    return (this.#flags[i] & REC) !== 0 ? this.#distance[i] : null;
  }

  floor(i: number): boolean {
    return (this.#flags[i] & FLOOR) !== 0;
  }

  spilled(i: number): boolean {
    return (this.#flags[i] & SPILLED_FLAG) !== 0;
  }

  summarized(i: number): boolean {
    return (this.#flags[i] & SUMMARIZED) !== 0;
  }

  cleared(i: number): boolean {
    return (this.#flags[i] & CLEARED) !== 0;
  }

  foldedAt(i: number): number | null {
    return orNull(this.#folded[i]);
  }

  droppedAt(i: number): number | null {
    return orNull(this.#dropped[i]);
  }

  finalChars(i: number): number | null {
    return orNull(this.#chars[i]);
  }

  lostAt(i: number): number {
    return this.#lostHow[i] === LOST_NONE ? -1 : this.#lostAt[i];
  }

  lostHow(i: number): string {
    const how = this.#lostHow[i];
    const e = this.#lostEvent[i];
    return how === LOST_EVENT && e
      ? `${e.stage} ${e.action}`
      : how === LOST_FOLD
        ? 'summarize (folded into a summary)'
        : 'hardcap drop';
  }

  #fate(i: number): ResultFate {
    const s = this.#table.sites[i];
    const at = this.lostAt(i);
    return {
      toolUseId: s.toolUseId,
      messageIndex: s.messageIndex,
      tier: this.tier(i),
      firstTouchRequest: this.firstTouchRequest(i),
      distanceAtFirstTouch: this.distanceAtFirstTouch(i),
      floor: this.floor(i),
      spilled: this.spilled(i),
      summarized: this.summarized(i),
      cleared: this.cleared(i),
      foldedAt: this.foldedAt(i),
      droppedAt: this.droppedAt(i),
      finalChars: this.finalChars(i),
      lostBy: at < 0 ? null : { request: at, how: this.lostHow(i) },
    };
  }

  *entries(): MapIterator<[string, ResultFate]> {
    for (let i = 0; i < this.size; i++) yield [this.#table.sites[i].toolUseId, this.#fate(i)];
  }

  *keys(): MapIterator<string> {
    for (const s of this.#table.sites) yield s.toolUseId;
  }

  *values(): MapIterator<ResultFate> {
    for (let i = 0; i < this.size; i++) yield this.#fate(i);
  }

  [Symbol.iterator](): MapIterator<[string, ResultFate]> {
    return this.entries();
  }

  forEach(f: (value: ResultFate, key: string, map: ReadonlyMap<string, ResultFate>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}

/** The fate of every result site, by tool_use id (thread order). */
export function resultFates(sites: SiteTable, states: StageStates, trail: RewriteTrail): ResultFates {
  return new FateColumns(sites, states, trail);
}
