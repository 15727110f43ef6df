// One row of the sessions table (SPEC §6 Sessions, §8 `scan`): what a parsed session is — project, title, times,
// models, requests, sub-agents — and what it cost, read from the log's own usage without tokenizing: recorded
// dollars, observed cache hit rate and breaks, agent compactions, pairing problems of the recorded input. The
// settings are the ones `analyze` starts from (the log's defaults over the seeds preset), so both agree per file.

import { observedTimeline } from '../analyses/cache-timeline.ts';
import { CostMemo } from '../analyses/cost.ts';
import { inputPairing } from '../analyses/input-pairing.ts';
import { logDefaults } from '../analyses/log-defaults.ts';
import { type RecordedCost, recordedCost } from '../analyses/recorded-cost.ts';
import { totalsCheck } from '../analyses/self-check.ts';
import { withLogDefaults } from '../analyses/settings-origin.ts';
import { lookupModel, type ModelLookup } from '../catalog/catalog.ts';
import type { FormatId, Message, Transcript } from '../model/transcript.ts';
import { presetConfig } from '../pipeline/presets.ts';
import { sessionTitle } from './title.ts';

export type SessionRow = {
  /** The main file, relative to the scanned folder ('/'-separated); `<file>#<session id>` for a session of a file
   *  that holds several (an opencode database). */
  path: string;
  /** The session within a file that holds several, by id (null: the file is the session). */
  session: string | null;
  /** Companion files read with it (sub-agents), relative to the folder. */
  companions: string[];
  sessionId: string | null;
  project: string;
  /** The session's own title (a summary line, a task name), else its first prompt; null when it has neither. */
  title: string | null;
  format: FormatId;
  /** Epoch ms of the first and last timestamp in the log (observed); null when it has none. */
  start: number | null;
  end: number | null;
  models: string[];
  /** Requests of every thread (assistant responses, deduplicated as `analyze` counts them). */
  requests: number;
  subagents: number;
  /** Recorded dollars (observed usage at list prices, as `analyze` reports them); null: the log has no usage. */
  usd: number | null;
  /** Models with usage the catalog has no price for (their entries are left out of `usd`). */
  unpricedModels: string[];
  /** cacheRead / prompt over every request with usage (observed); null: no usage. */
  hitRate: number | null;
  /** Observed prompt tokens (input + cache read + cache write) and cache reads, summed over requests with usage. */
  promptTokens: number;
  cacheReadTokens: number;
  observedBreaks: number;
  compactions: number;
  /** Pairing errors the provider would return for the recorded input (counted; warnings apart). */
  pairingErrors: number;
  pairingWarnings: number;
  parseIssues: number;
  /** The self-check a scan can make without tokenizing (self-check.ts): threads whose billed responses disagree
   *  with the log's own running totals (0: they agree, or the log writes none). */
  sumsOff: number;
  /** For a fork read without its parent: the thread it was forked from (or spawned by). */
  forkOf: string | null;
  /** A sub-agent file whose session file is not in the scanned folder: a row of its own, since it is billed all the
   *  same (its `sessionId` names that session). */
  orphan: boolean;
  bytes: number;
  /** What it billed per quarter hour (UTC), so totals per local day follow each response's own time (every time
   *  zone's offset is a whole number of quarter hours): [quarter (epoch ms / 900,000), requests, USD, prompt tokens,
   *  cache-read tokens]. A request without a time counts at the session's start; empty when the log has no times. */
  spend: Spend[];
};

type Spend = [quarter: number, requests: number, usd: number, prompt: number, read: number];

/** A quarter hour in ms (rows.ts QUARTER_MS, which reads the spend: summary.ts stays out of the page's imports). */
const QUARTER_MS = 900_000;

/** The session's spend per quarter hour (SessionRow.spend), from each request's time and recorded dollars. */
function spendOf(t: Transcript, start: number | null, cost: RecordedCost): Spend[] {
  if (start === null) return [];
  const byQuarter = new Map<number, Spend>();
  const add = (time: number | undefined, requests: number, usd: number, prompt: number, read: number) => {
    const q = Math.floor((time !== undefined && Number.isFinite(time) ? time : start) / QUARTER_MS);
    let s = byQuarter.get(q);
    if (!s) {
      s = [q, 0, 0, 0, 0];
      byQuarter.set(q, s);
    }
    s[1] += requests;
    s[2] += usd;
    s[3] += prompt;
    s[4] += read;
  };
  t.threads.forEach((th, ti) => {
    th.requests.forEach((r, ri) => {
      const o = r.observed;
      const usd = cost.byRequest[ti]?.[ri] ?? 0;
      add(r.time, 1, usd, o ? o.input + o.cacheRead + o.cacheWrite : 0, o ? o.cacheRead : 0);
    });
  });
  for (const a of cost.apart) add(a.time, 0, a.usd ?? 0, 0, 0);
  return [...byQuarter.values()].sort((a, b) => a[0] - b[0]);
}

function timeRange(t: Transcript): { start: number | null; end: number | null } {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  const see = (x: number | undefined) => {
    if (x === undefined || !Number.isFinite(x)) return;
    if (x < start) start = x;
    if (x > end) end = x;
  };
  for (const th of t.threads) {
    for (const m of th.messages) see(m.time);
    for (const r of th.requests) {
      see(r.time);
      see(r.responseTime);
    }
  }
  return Number.isFinite(start) ? { start, end } : { start: null, end: null };
}

/** The agent's own compactions: each leaves one summary message (Claude Code's compact summary, Codex `compacted`). */
function compactionsOf(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) if (m.compaction === 'summary') n++;
  return n;
}

function modelsOf(t: Transcript): string[] {
  const seen = new Set<string>();
  for (const th of t.threads) for (const r of th.requests) if (r.model && !r.model.startsWith('<')) seen.add(r.model);
  return [...seen].sort();
}

export type RowPlace = { path: string; companions: string[]; project: string; bytes: number; orphan?: boolean };

/** Catalog lookups shared by the sessions of one scan: a model's entry, and its prices at an hour, are the same in
 *  every session, and a lookup is not free. */
export type RowMemo = { pricings: CostMemo['pricings']; models: Map<string, ModelLookup> };

export function rowMemo(): RowMemo {
  return { pricings: new Map(), models: new Map() };
}

/** The row of a parsed session at `place`; `memo`: the scan's (rows are the same without one). */
export function sessionRow(t: Transcript, place: RowPlace, memo: RowMemo = rowMemo()): SessionRow {
  const lookup = (id: string) => {
    let found = memo.models.get(id);
    if (!found) {
      found = lookupModel(id);
      memo.models.set(id, found);
    }
    return found;
  };
  const defaults = logDefaults(t, lookup);
  const config = withLogDefaults(presetConfig('seeds'), defaults);
  const recorded = recordedCost(t, config.prices, new CostMemo(memo.pricings));
  const cost = recorded.totals;
  const times = timeRange(t);
  let prompt = 0;
  let read = 0;
  for (const th of t.threads)
    for (const r of th.requests) {
      if (!r.observed) continue;
      prompt += r.observed.input + r.observed.cacheRead + r.observed.cacheWrite;
      read += r.observed.cacheRead;
    }
  const pairing = inputPairing(t, defaults.provider.value);
  const main = t.threads.find((th) => th.kind === 'main') ?? t.threads[0];
  const title = sessionTitle(t);
  return {
    path: place.path,
    session: null,
    companions: place.companions,
    sessionId: t.meta.sessionId ?? null,
    project: place.project,
    title,
    format: t.format,
    ...times,
    models: modelsOf(t),
    requests: t.threads.reduce((n, th) => n + th.requests.length, 0),
    subagents: t.threads.filter((th) => th.kind === 'sidechain').length,
    usd: cost ? cost.usd : null,
    unpricedModels: cost?.unpriced.models ?? [],
    hitRate: prompt > 0 ? read / prompt : null,
    promptTokens: prompt,
    cacheReadTokens: read,
    observedBreaks: observedTimeline(t, config).filter((p) => p.break).length,
    compactions: t.threads.reduce((n, th) => n + compactionsOf(th.messages), 0),
    pairingErrors: pairing.filter((v) => v.severity === 'error').length,
    pairingWarnings: pairing.filter((v) => v.severity === 'warning').length,
    parseIssues: t.parseIssues.length,
    sumsOff: totalsCheck(t).filter((x) => !x.agrees).length,
    forkOf: main?.fork?.from ?? null,
    orphan: place.orphan ?? false,
    bytes: place.bytes,
    spend: spendOf(t, times.start, recorded),
  };
}
