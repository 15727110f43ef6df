// Which API responses of a Claude Code session were billed, and for what usage. One response is written over
// several lines (same message.id + requestId), and the lines often carry streamed usage snapshots (output_tokens
// 1, 5, 25 …): the billed usage is the copy with the most tokens (input + output + cache read + cache write),
// the first on ties — the rule ccusage applies, so both read the same dollars from a file. A sidechain line that
// replays a parent response (same message.id, another requestId) is not billed again. Responses no thread's
// branch holds (rewound turns) were still paid for: `apartOf` lists them for the thread that owns their lines.
import { obj, str, toEpochMs } from '../lib/json.ts';
import type { BilledResponse, ObservedUsage, ReportedCacheMiss } from '../model/transcript.ts';
import type { LineNumber } from '../model/units.ts';
import { anthropicUsage } from './anthropic-blocks.ts';
import { responseKeyOf } from './claude-code-batches.ts';

/** What billing needs of a line: its number, kind, chain and JSON. */
export type BillingLine = { no: LineNumber; kind: string; sidechain: boolean; o: Record<string, unknown> };

/** One billed response: the usage it was billed for and the line that holds that usage. */
type Billed = Omit<BilledResponse, 'why'> & { sidechain: boolean; cacheMiss?: ReportedCacheMiss | null };

/** The provider's own cache-miss reason of a response (2.1.1xx `message.diagnostics`): `null` says no miss. */
function reportedMiss(m: Record<string, unknown> | undefined): ReportedCacheMiss | null | undefined {
  if (!m || !('diagnostics' in m)) return undefined;
  if (m.diagnostics === null) return null;
  const reason = obj(obj(m.diagnostics)?.cache_miss_reason);
  const type = str(reason?.type);
  if (type === undefined) return undefined;
  if (type === 'none') return null;
  const missed = reason?.cache_missed_input_tokens;
  return typeof missed === 'number' && Number.isFinite(missed) ? { type, missedTokens: missed } : { type };
}

export type Billing = {
  /** Billed responses by key (`responseKeyOf`, or `<file>#<line>` for a line without ids). */
  responses: Map<string, Billed>;
  /** Responses whose usage names a price modifier list prices do not carry (pricedApart), by modifier, with the
   *  first line: counted so the summary can say which dollars they leave out. */
  modifiers: Map<string, { count: number; line: LineNumber; file?: string }>;
  /** Keys of sidechain lines that replay another file's or chain's response: not billed again. */
  replays: Set<string>;
};

const total = (u: ObservedUsage) => u.input + u.output + u.cacheRead + u.cacheWrite;

/** The key a line is billed under. */
export function billingKey(l: BillingLine, file?: string): string {
  return responseKeyOf(l.o) ?? `${file ?? ''}#${l.no}`;
}

/** The usage of an assistant line that reports one (Claude Code's own `<synthetic>` messages are no API call). */
function usageLine(l: BillingLine, file?: string): Billed | undefined {
  if (l.kind !== 'assistant') return undefined;
  const m = obj(l.o.message);
  const model = str(m?.model);
  if (model === '<synthetic>') return undefined;
  const usage = anthropicUsage(m?.usage);
  if (!usage) return undefined;
  const b: Billed = { usage, line: l.no, sidechain: l.sidechain };
  const miss = reportedMiss(m);
  if (miss !== undefined) b.cacheMiss = miss;
  if (file !== undefined) b.file = file;
  const time = toEpochMs(l.o.timestamp);
  if (time !== undefined) b.time = time;
  if (model !== undefined) b.model = model;
  const requestId = str(l.o.requestId);
  if (requestId !== undefined) b.requestId = requestId;
  return b;
}

/**
 * What a 2.1.1xx usage object says beyond the tokens, and what Tierscope does with it: `iterations[]` lists the
 * model calls of one response (its tokens are the top-level ones summed: every real response checked has one
 * iteration equal to them), `cache_creation` splits 5-minute and 1-hour writes (priced), and these change the price
 * per token or add a fee that list prices do not carry: a service tier other than standard (priority, batch), a
 * `speed` other than standard, a data-residency `inference_geo`, and server tool calls (web search and fetch are
 * billed per call). Each is named here so the summary can say what the dollars leave out.
 */
function pricedApart(usage: unknown): string[] {
  const u = obj(usage);
  if (!u) return [];
  const out: string[] = [];
  // A value is a word (`priority`, `fast`, `us`); anything else (a trimmed fixture's placeholder) names nothing.
  const word = (v: unknown) => {
    const s = str(v);
    return s !== undefined && /^[\w-]{1,40}$/.test(s) ? s : undefined;
  };
  const tier = word(u.service_tier);
  if (tier !== undefined && tier !== 'standard') out.push(`service_tier ${tier}`);
  const speed = word(u.speed);
  if (speed !== undefined && speed !== 'standard') out.push(`speed ${speed}`);
  const geo = word(u.inference_geo);
  if (geo !== undefined && geo !== 'global' && geo !== 'not_available') out.push(`inference_geo ${geo}`);
  const tools = obj(u.server_tool_use);
  for (const [k, v] of Object.entries(tools ?? {}))
    if (typeof v === 'number' && v > 0) out.push(`server_tool_use ${k}`);
  return out;
}

/** The billed responses of a session's files (the main file first, then its sub-agent files). */
export function billingOf(files: readonly { file?: string; lines: readonly BillingLine[] }[]): Billing {
  const responses = new Map<string, Billed>();
  const modifiers: Billing['modifiers'] = new Map();
  /** message.id → keys seen with it, to find sidechain replays under another requestId. */
  const byMessage = new Map<string, string[]>();
  for (const { file, lines } of files) {
    for (const l of lines) {
      const b = usageLine(l, file);
      if (!b) continue;
      const key = billingKey(l, file);
      const prior = responses.get(key);
      if (prior === undefined) {
        responses.set(key, b);
        for (const m of pricedApart(obj(l.o.message)?.usage)) {
          const seen = modifiers.get(m);
          if (seen) seen.count++;
          else modifiers.set(m, { count: 1, line: l.no, ...(file !== undefined ? { file } : {}) });
        }
        const id = str(obj(l.o.message)?.id);
        if (id !== undefined) byMessage.set(id, [...(byMessage.get(id) ?? []), key]);
      } else if (total(b.usage) > total(prior.usage)) {
        responses.set(key, { ...b, sidechain: prior.sidechain && b.sidechain });
      } else if (!b.sidechain && prior.sidechain) prior.sidechain = false;
    }
  }
  const replays = new Set<string>();
  for (const keys of byMessage.values()) {
    if (keys.length < 2) continue;
    const parent = keys.find((k) => !responses.get(k)?.sidechain);
    if (parent === undefined) continue;
    for (const k of keys) if (k !== parent && responses.get(k)?.sidechain) replays.add(k);
  }
  for (const k of replays) responses.delete(k);
  return { responses, replays, modifiers };
}

/** Billed responses whose key no thread holds, as `abandoned-branch` entries in log order. */
export function apartOf(billing: Billing, keys: Iterable<string>, held: ReadonlySet<string>): BilledResponse[] {
  const out: BilledResponse[] = [];
  for (const k of new Set(keys)) {
    const b = billing.responses.get(k);
    if (!b || held.has(k)) continue;
    const { sidechain: _s, cacheMiss: _m, ...rest } = b;
    out.push({ why: 'abandoned-branch', ...rest });
  }
  return out.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line);
}
