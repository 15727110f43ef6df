// Defaults come from the log (SPEC §1.1): the pairing provider from the format and the model, the context window
// from the model catalog — or the window the log itself states (Codex), or a larger one when an observed prompt
// already exceeds it (a 1M-context session). One pure function for the CLI and the worker, so a file starts from
// the same settings in both; every default says where it came from (the UI's "from the log" labels, the report).

import { CATALOG, familyWindows, lookupModel, type ModelLookup } from '../catalog/catalog.ts';
import { type ParsedModelId, parseModelId } from '../catalog/model-id.ts';
import { grouped } from '../lib/digits.ts';
import type { FormatId, Transcript } from '../model/transcript.ts';
import { DEFAULT_CONFIG } from '../pipeline/config.ts';
import { observedPrompt } from '../tokens/calibration.ts';
import type { LogDefaults, LogModel, ProviderDefault, TtlDefault, WindowDefault } from './settings-origin.ts';

/** Formats whose logs are Anthropic Messages requests, whatever model answered them. */
const ANTHROPIC_WIRE: readonly FormatId[] = ['claude-code', 'claude-trace', 'anthropic-request'];

const fmt = grouped;

/** Most frequent of a list of model names (ties: the first seen); synthetic names like `<synthetic>` skipped. */
function dominant(names: (string | undefined)[]): { id: string; count: number; of: number } | null {
  const counts = new Map<string, number>();
  for (const n of names) if (n && !n.startsWith('<')) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best: { id: string; count: number } | null = null;
  for (const [id, count] of counts) if (!best || count > best.count) best = { id, count };
  const of = [...counts.values()].reduce((a, b) => a + b, 0);
  return best ? { ...best, of } : null;
}

/** The model the log's defaults follow (main thread first; the file's own statement last). */
export function logModel(t: Transcript): LogModel | null {
  const main = t.threads.find((th) => th.kind === 'main') ?? t.threads[0];
  const byRequest = dominant(main?.requests.map((r) => r.model) ?? []);
  if (byRequest) return { ...byRequest, source: 'requests' };
  const byMessage = dominant(main?.messages.filter((m) => m.role === 'assistant').map((m) => m.model) ?? []);
  if (byMessage) return { ...byMessage, source: 'messages' };
  const stated = t.meta.extra?.model;
  return typeof stated === 'string' && stated && !stated.startsWith('<')
    ? { id: stated, count: 0, of: 0, source: 'file' }
    : null;
}

function providerDefault(format: FormatId, id: ParsedModelId | null): ProviderDefault {
  const model = id?.raw;
  if (format === 'codex')
    return { value: 'openai-responses', from: 'format', why: 'Codex sends its history to the OpenAI Responses API' };
  if (id?.host === 'bedrock') return { value: 'bedrock', from: 'model', why: `${model} is a Bedrock model id` };
  if (ANTHROPIC_WIRE.includes(format))
    return id?.family === 'anthropic'
      ? { value: 'anthropic', from: 'model', why: `${model} is a Claude model (${format} log)` }
      : { value: 'anthropic', from: 'format', why: `${format} logs are Anthropic Messages requests` };
  if (id?.family === 'anthropic') return { value: 'anthropic', from: 'model', why: `${model} is a Claude model` };
  if (id?.family === 'google') return { value: 'gemini', from: 'model', why: `${model} is a Gemini model` };
  if (id?.family === 'openai') return { value: 'openai-chat', from: 'model', why: `${model} is an OpenAI model` };
  if (format === 'tierscope')
    return { value: 'anthropic', from: 'format', why: 'the bundle names no original format nor a known model' };
  return {
    value: 'openai-chat',
    from: 'format',
    why: `${format} histories are OpenAI chat messages${model ? ` (${model} names no other provider)` : ''}`,
  };
}

/** The largest observed prompt of any request of any thread. */
function observedMax(t: Transcript): WindowDefault['observedMax'] {
  let best: WindowDefault['observedMax'] = null;
  for (const th of t.threads)
    for (const r of th.requests)
      if (r.observed) {
        const tokens = observedPrompt(r.observed);
        if (!best || tokens > best.tokens) best = { tokens, thread: th.id, request: r.index };
      }
  return best;
}

function windowDefault(t: Transcript, model: LogModel | null, lookup: ModelLookup | null): WindowDefault {
  const known = lookup?.known ? lookup : null;
  const catalogWindow = known?.contextWindow ?? null;
  const catalogId = known?.catalogId ?? null;
  const stated = t.meta.extra?.modelContextWindow;
  const logWindow = typeof stated === 'number' && stated > 0 ? stated : null;
  const obs = observedMax(t);
  const base = { catalogWindow, catalogId, observedMax: obs };
  const cat = `${CATALOG.name} ${CATALOG.version}`;
  const catalogSays = known
    ? catalogWindow !== null
      ? `${cat} lists ${fmt(catalogWindow)} for ${model?.id}${catalogId !== model?.id ? ` (as ${catalogId})` : ''}`
      : `${cat} lists no context window for ${model?.id}`
    : lookup
      ? `${model?.id} is not in ${cat}`
      : 'the log names no model';
  const chosen: Pick<WindowDefault, 'value' | 'from' | 'why'> =
    logWindow !== null
      ? {
          value: logWindow,
          from: 'log',
          why: `the log states a context window of ${fmt(logWindow)} (model_context_window); ${catalogSays}`,
        }
      : catalogWindow !== null
        ? { value: catalogWindow, from: 'catalog', why: catalogSays }
        : { value: null, from: 'none', why: catalogSays };
  const limit = chosen.value ?? DEFAULT_CONFIG.contextWindow;
  if (!obs || obs.tokens <= limit) return { ...base, ...chosen };
  // The session already sent a prompt larger than that window, so it ran with a larger one: the smallest the
  // catalog lists for the maker's models that holds it, else the prompt rounded up to the next thousand.
  const family = lookup?.id.family ?? 'other';
  const larger = familyWindows(family).find((w) => w >= obs.tokens);
  const value = larger ?? Math.ceil(obs.tokens / 1000) * 1000;
  const seen = `request ${obs.request} of ${obs.thread} sent ${fmt(obs.tokens)} prompt tokens (observed), over ${fmt(limit)}`;
  const why = larger
    ? `${seen}: ${fmt(larger)} is the smallest window ${cat} lists for a ${family} model that holds it`
    : `${seen}: that prompt, rounded up to the next 1,000`;
  return { ...base, value, from: 'observed', why };
}

/** 1 hour when at least half the tokens the log wrote to cache were 1-hour writes. */
function ttlDefault(t: Transcript): TtlDefault {
  let written = 0;
  let oneHour = 0;
  for (const th of t.threads)
    for (const r of th.requests) {
      written += r.observed?.cacheWrite ?? 0;
      oneHour += r.observed?.cacheWrite1h ?? 0;
    }
  if (written > 0 && oneHour * 2 >= written)
    return {
      value: 3600,
      why: `${fmt(oneHour)} of the ${fmt(written)} tokens the log wrote to cache were 1-hour writes`,
    };
  return {
    value: null,
    why:
      written > 0
        ? `the log's cache writes are 5-minute writes (${fmt(oneHour)} of ${fmt(written)} tokens for 1 hour)`
        : 'the log records no cache writes',
  };
}

/** The settings a log implies: provider, context window and cache TTL, each with where it came from. Pure.
 *  `lookup`: the catalog lookup (a scan passes one that remembers the models of its folder). */
export function logDefaults(t: Transcript, lookup: (id: string) => ModelLookup = lookupModel): LogDefaults {
  const format = t.format === 'tierscope' ? (t.meta.originalFormat ?? t.format) : t.format;
  const model = logModel(t);
  const found = model ? lookup(model.id) : null;
  return {
    format,
    model,
    lookup: found,
    provider: providerDefault(format, model ? parseModelId(model.id) : null),
    contextWindow: windowDefault(t, model, found),
    cacheTtl: ttlDefault(t),
    catalog: CATALOG,
  };
}
