// The settings part of a share payload (SPEC §7): preset, changed config keys, mode, provider, encoding and view,
// defaults left out. Apart from the transcript's bundle (payload.ts) so the page can show what a link carries
// without the parsers.
import type { Bundle } from '../formats/tierscope.ts';
import type { Provider } from '../pairing/types.ts';
import { diffKeys, getKey, type PipelineConfig } from '../pipeline/config.ts';
import { type PresetId, presetConfig } from '../pipeline/presets.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import type { EncodingName } from '../tokens/encodings.ts';
import { DEFAULT_VIEW, encodeView, type View } from './view.ts';

/** The share format's version (a link or file of another version is refused, payload.ts). */
export const SHARE_VERSION = 1;

export type ShareSettings = {
  preset: PresetId;
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  encoding: EncodingName;
};

/** The settings a link leaves out (the defaults), and what the page starts from before anything is loaded. */
export const DEFAULT_SETTINGS: Omit<ShareSettings, 'config'> = {
  preset: 'seeds',
  mode: 'recorded',
  provider: 'anthropic',
  encoding: 'o200k_base',
};

/** The JSON written into links and share files. */
export type SharePayload = {
  v: typeof SHARE_VERSION;
  /** `preset` plus the dotted keys whose values differ from that preset; absent when both are default. */
  config?: Record<string, unknown>;
  mode?: ReplayMode;
  provider?: Provider;
  encoding?: EncodingName;
  /** The view (view.ts's one encoding); links made before it hold `{thread, request, selection}`. */
  view?: string;
  transcript?: Bundle;
  sample?: string;
};

/** Settings part of a payload (everything but the transcript), defaults left out. */
export function settingsPayload(s: ShareSettings & { view?: View }): Omit<SharePayload, 'transcript' | 'sample'> {
  const out: Omit<SharePayload, 'transcript' | 'sample'> = { v: SHARE_VERSION };
  const changed = diffKeys(presetConfig(s.preset), s.config);
  if (s.preset !== DEFAULT_SETTINGS.preset || changed.length > 0) {
    const config: Record<string, unknown> = { preset: s.preset };
    for (const k of changed) config[k] = getKey(s.config, k);
    out.config = config;
  }
  if (s.mode !== DEFAULT_SETTINGS.mode) out.mode = s.mode;
  if (s.provider !== DEFAULT_SETTINGS.provider) out.provider = s.provider;
  if (s.encoding !== DEFAULT_SETTINGS.encoding) out.encoding = s.encoding;
  const view = encodeView(s.view ?? DEFAULT_VIEW);
  if (view !== '') out.view = view;
  return out;
}
