// An independent computation of a log's recorded dollars from its raw lines, for the fixture tests and the
// ccusage comparison script: no parser, no report — the lines themselves and the catalog's prices.
// Claude Code: every assistant line with usage in the session's files (the main file, its `subagents/` files and
// sibling agent files of the same session), one per message.id + requestId keeping the copy with the most tokens
// (ccusage's rule), Claude Code's own `<synthetic>` messages left out. Codex: each token_count's growth of
// `total_token_usage` (a total that falls starts a new count), at the model of the latest turn_context.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lookupModel } from '../../src/catalog/catalog.ts';
import { companionFiles } from '../../src/cli/node-input.ts';

export type Independent = { usd: number; responses: number; unpriced: string[] };

export type Usage = { input: number; output: number; cacheRead: number; write5m: number; write1h: number };

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      const v = JSON.parse(l);
      if (v && typeof v === 'object') out.push(v);
    } catch {
      // a broken line is not a billed response
    }
  }
  return out;
}

/** Dollars of one response at the catalog's prices (the long-context tier over its threshold), or null. */
export function dollars(model: string, time: unknown, u: Usage): number | null {
  const at = typeof time === 'string' ? new Date(time) : undefined;
  const l = lookupModel(model, at && !Number.isNaN(at.getTime()) ? at : undefined);
  if (!l.known || !l.prices) return null;
  const prompt = u.input + u.cacheRead + u.write5m + u.write1h;
  const p = l.prices.longContext && prompt > l.prices.longContext.aboveTokens ? l.prices.longContext : l.prices;
  if (u.cacheRead > 0 && p.cacheRead === null) return null;
  return (
    (u.input * p.input +
      u.output * p.output +
      u.cacheRead * (p.cacheRead ?? 0) +
      u.write5m * (p.cacheWrite5m ?? p.input) +
      u.write1h * (p.cacheWrite1h ?? 2 * p.input)) /
    1e6
  );
}

/** The raw texts of a Claude Code session: the file, its sub-agent files and same-session sibling agent files. */
export function sessionTexts(path: string): string[] {
  const main = readFileSync(path, 'utf8');
  const sid = /"sessionId":"([^"]+)"/.exec(main)?.[1];
  const texts = [main];
  for (const c of companionFiles(path)) {
    if (!c.name.endsWith('.jsonl')) continue;
    const text = new TextDecoder().decode(Buffer.concat([...c.chunks()]));
    if (!c.name.includes('/subagents/') && /"sessionId":"([^"]+)"/.exec(text)?.[1] !== sid) continue;
    texts.push(text);
  }
  return texts;
}

export function claudeCodeDollars(path: string): Independent {
  const best = new Map<string, { total: number; usage: Usage; model: string; time: unknown }>();
  let anonymous = 0;
  for (const text of sessionTexts(path)) {
    for (const o of jsonLines(text)) {
      const m = o.message as Record<string, unknown> | undefined;
      const u = m?.usage as Record<string, unknown> | undefined;
      if (o.type !== 'assistant' || !m || !u || typeof u.input_tokens !== 'number') continue;
      if (m.model === '<synthetic>') continue;
      const written = num(u.cache_creation_input_tokens);
      const cc = u.cache_creation as Record<string, unknown> | undefined;
      const oneHour = Math.min(written, num(cc?.ephemeral_1h_input_tokens));
      const usage: Usage = {
        input: num(u.input_tokens),
        output: num(u.output_tokens),
        cacheRead: num(u.cache_read_input_tokens),
        write5m: written - oneHour,
        write1h: oneHour,
      };
      const total = usage.input + usage.output + usage.cacheRead + written;
      const id = m.id ?? o.requestId;
      const key = id === undefined ? `#${anonymous++}` : `${String(m.id)}|${String(o.requestId)}`;
      const prior = best.get(key);
      if (!prior || total > prior.total)
        best.set(key, { total, usage, model: String(m.model ?? ''), time: o.timestamp });
    }
  }
  let usd = 0;
  const unpriced = new Set<string>();
  for (const b of best.values()) {
    const d = dollars(b.model, b.time, b.usage);
    if (d === null) unpriced.add(b.model);
    else usd += d;
  }
  return { usd, responses: best.size, unpriced: [...unpriced] };
}

/**
 * A Codex rollout's dollars from its token_count running totals (each total's growth is one billed call), with the
 * later rollouts of its folder that were forked from it (a child counts only what it billed after its fork: the
 * function_call_output Codex answers its spawn call with ends the replay of the parent).
 */
export function codexDollars(path: string): Independent {
  const own = codexFileDollars(path, false);
  const first = jsonLines(readFileSync(path, 'utf8'))[0]?.payload as Record<string, unknown> | undefined;
  const id = typeof first?.id === 'string' ? first.id : undefined;
  if (!id) return own;
  const dir = dirname(path);
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.jsonl') || join(dir, f) === path) continue;
    const head = readFileSync(join(dir, f), 'utf8').split('\n', 1)[0];
    if (!head.includes(`"forked_from_id":"${id}"`)) continue;
    const child = codexFileDollars(join(dir, f), true);
    own.usd += child.usd;
    own.responses += child.responses;
    own.unpriced.push(...child.unpriced);
  }
  return own;
}

function codexFileDollars(path: string, fork: boolean): Independent {
  let counting = !fork;
  let model = '';
  let prev: Record<string, unknown> | undefined;
  let usd = 0;
  let responses = 0;
  const unpriced = new Set<string>();
  for (const o of jsonLines(readFileSync(path, 'utf8'))) {
    const p = o.payload as Record<string, unknown> | undefined;
    if (o.type === 'turn_context' && typeof p?.model === 'string') model = p.model;
    if (p?.type === 'function_call_output' && String(p.output).startsWith('You are the newly spawned agent'))
      counting = true;
    if (o.type !== 'event_msg' || p?.type !== 'token_count') continue;
    const total = (p.info as Record<string, unknown> | null)?.total_token_usage as Record<string, unknown> | undefined;
    if (!total) continue;
    const reset = prev !== undefined && num(total.total_tokens) < num(prev.total_tokens);
    const base = reset ? undefined : prev;
    const delta = (k: string) => num(total[k]) - (base ? num(base[k]) : 0);
    prev = total;
    const input = delta('input_tokens');
    const cached = delta('cached_input_tokens');
    const write = delta('cache_write_input_tokens');
    const usage: Usage = {
      input: input - cached - write,
      output: delta('output_tokens'),
      cacheRead: cached,
      write5m: write,
      write1h: 0,
    };
    if (usage.input + usage.output + usage.cacheRead + usage.write5m === 0 || !counting) continue;
    responses++;
    const d = dollars(model, o.timestamp, usage);
    if (d === null) unpriced.add(model);
    else usd += d;
  }
  return { usd, responses, unpriced: [...unpriced] };
}
