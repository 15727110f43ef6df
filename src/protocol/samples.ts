// The bundled samples' manifest (public/samples/index.json): written by scripts/gen-samples.ts, read by the page's
// sample picker. Each sample carries its own settings, applied over the log's defaults.

import type { Provider } from '../pairing/types.ts';
import type { PresetId } from '../pipeline/presets.ts';
import type { ReplayMode } from '../replay/inputs.ts';

/** A bundled sample's own settings, applied over the log's defaults. */
export type SampleSettings = {
  preset?: PresetId;
  /** Config overrides over the preset (nested or dotted keys), validated like a --config file. */
  set?: Record<string, unknown>;
  mode?: ReplayMode;
  provider?: Provider;
};

/** One entry of public/samples/index.json: the file and its own settings. */
export type SampleEntry = SampleSettings & {
  id: string;
  /** File name inside samples/. */
  file: string;
  title: string;
  description: string;
};

export type SampleManifest = { samples: SampleEntry[] };
