// How a run's settings relate to the log's defaults (SPEC §1.1): the shapes of those defaults (decided by
// log-defaults.ts in the worker and the CLI), a config with the log's window, and where each setting of a run came
// from. No catalog here: the UI imports this file, and the catalog's data stays in the worker's bundle.

import type { CatalogInfo, ModelLookup } from '../catalog/catalog.ts';
import type { FormatId } from '../model/transcript.ts';
import type { RequestIndex, Tokens } from '../model/units.ts';
import type { Provider } from '../pairing/validate.ts';
import type { PipelineConfig } from '../pipeline/config.ts';

/** The model the defaults follow: the one that served most of the main thread's requests. */
export type LogModel = {
  id: string;
  /** Requests (or assistant messages) of the main thread it served, of how many with a model. */
  count: number;
  of: number;
  /** Where it was read: the main thread's requests, its messages, or the file's header (SWE-agent, Codex). */
  source: 'requests' | 'messages' | 'file';
};

export type ProviderDefault = { value: Provider; from: 'model' | 'format'; why: string };

export type WindowDefault = {
  /** null: neither the log nor the catalog gives one; the preset's window stays. */
  value: Tokens | null;
  from: 'catalog' | 'log' | 'observed' | 'none';
  /** What the catalog says for the model (null: unknown model, or no window listed). */
  catalogWindow: Tokens | null;
  catalogId: string | null;
  /** The largest observed prompt (input + cache read + cache write) of any request, and where. */
  observedMax: { tokens: Tokens; thread: string; request: RequestIndex } | null;
  why: string;
};

/** The prompt-cache TTL the log implies: 1 hour when most of its cache writes are 1-hour writes (Claude Code
 *  2.1 writes the main thread's cache for 1 hour), else the preset's. */
export type TtlDefault = { value: number | null; why: string };

export type LogDefaults = {
  format: FormatId;
  model: LogModel | null;
  /** The catalog's answer for the model (`known: false` says why it has none). */
  lookup: ModelLookup | null;
  provider: ProviderDefault;
  contextWindow: WindowDefault;
  cacheTtl: TtlDefault;
  catalog: CatalogInfo;
};

/** A config with the log's window and cache TTL in place of the preset's (unchanged where the log gives none). */
export function withLogDefaults(c: PipelineConfig, d: LogDefaults | null | undefined): PipelineConfig {
  const w = d?.contextWindow.value;
  const ttl = d?.cacheTtl?.value;
  let out = c;
  if (w != null && w !== c.contextWindow) out = { ...out, contextWindow: w };
  if (ttl != null && ttl !== c.cache.ttlSeconds) out = { ...out, cache: { ...out.cache, ttlSeconds: ttl } };
  return out;
}

/** Where a run's provider and window came from: the log, a choice (flag, control, link), or the preset. */
export type SettingsOrigin = {
  model: LogModel | null;
  catalog: CatalogInfo;
  provider: { value: Provider; source: 'log' | 'chosen'; log: ProviderDefault };
  contextWindow: { value: Tokens; source: 'log' | 'chosen' | 'preset'; log: WindowDefault };
  cacheTtl: { value: number; source: 'log' | 'chosen' | 'preset'; log: TtlDefault };
};

/** Label a run's settings against the log's defaults; `chosen` says which the user set (CLI flags). */
export function settingsOrigin(
  d: LogDefaults,
  s: { provider: Provider; contextWindow: Tokens; ttlSeconds: number },
  chosen: { provider: boolean; contextWindow: boolean; ttl: boolean },
): SettingsOrigin {
  return {
    model: d.model,
    catalog: d.catalog,
    provider: { value: s.provider, source: chosen.provider ? 'chosen' : 'log', log: d.provider },
    contextWindow: {
      value: s.contextWindow,
      source: chosen.contextWindow ? 'chosen' : d.contextWindow.value === null ? 'preset' : 'log',
      log: d.contextWindow,
    },
    cacheTtl: {
      value: s.ttlSeconds,
      source: chosen.ttl ? 'chosen' : d.cacheTtl.value === null ? 'preset' : 'log',
      log: d.cacheTtl,
    },
  };
}
