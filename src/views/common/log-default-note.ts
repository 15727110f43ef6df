// The "from the log" labels beside the context window and the pairing provider (SPEC §1.1): where the value on
// screen came from — the log's model and the catalog, the log's own statement, an observed prompt, the format —
// or that it overrides the log (the user's choice, a share link's or a sample's settings), with the log's value.

import type { LogDefaults, Provider } from '../../protocol/index.ts';
import type { SettingsSource } from '../../state/types.ts';

export type DefaultNote = {
  text: string;
  /** The full reason (hover). */
  title: string;
  /** Where the value came from: catalog, log, observed, model, format, preset; or `override`. */
  source: string;
  overridden: boolean;
};

const n = (x: number) => x.toLocaleString('en-US');

/** Who set a value that differs from the log's: the link or sample that brought it (while it is still the value
 *  it brought), else the user. */
function overrider(from: SettingsSource | null, brought: boolean): string {
  if (!from || !brought) return 'override';
  return from.kind === 'link'
    ? 'from the share link'
    : from.kind === 'sample'
      ? 'from the sample'
      : 'from the share file';
}

/** The label of the context window: the config's `value` against the log's default (the preset's when the log
 *  gives none). */
export function windowNote(
  log: LogDefaults | null,
  value: number,
  presetWindow: number,
  from: SettingsSource | null,
): DefaultNote | null {
  if (!log) return null;
  const d = log.contextWindow;
  const model = log.model?.id;
  if (value !== (d.value ?? presetWindow)) {
    const says =
      d.value === null ? `the log gives none; the preset's is ${n(presetWindow)}` : `the log says ${n(d.value)}`;
    return {
      text: `${overrider(from, from?.contextWindow === value)} · ${says}`,
      title: d.why,
      source: 'override',
      overridden: true,
    };
  }
  if (d.value === null)
    return {
      text: `preset's window · ${d.why}`,
      title: `${d.why}: the preset's window applies`,
      source: 'preset',
      overridden: false,
    };
  const text =
    d.from === 'catalog'
      ? `from the log · ${model} in the catalog`
      : d.from === 'log'
        ? `from the log · stated by the log${model ? ` (${model})` : ''}`
        : `from the log · observed prompt of ${n(d.observedMax?.tokens ?? 0)} tokens`;
  return { text, title: d.why, source: d.from, overridden: false };
}

/** The label of the cache TTL: 1 hour from the log (its 1-hour writes), the preset's, or an override. */
export function ttlNote(
  log: LogDefaults | null,
  value: number,
  presetTtl: number,
  from: SettingsSource | null,
): DefaultNote | null {
  if (!log) return null;
  const d = log.cacheTtl;
  const expected = d.value ?? presetTtl;
  if (value !== expected)
    return {
      text: `${overrider(from, false)} · the log says ${n(expected)} s`,
      title: d.why,
      source: 'override',
      overridden: true,
    };
  if (d.value === null) return { text: `preset's TTL · ${d.why}`, title: d.why, source: 'preset', overridden: false };
  return { text: 'from the log · 1-hour cache writes', title: d.why, source: 'log', overridden: false };
}

/** The label of the pairing provider: from the log (its model or format), or an override of it. */
export function providerNote(
  log: LogDefaults | null,
  value: Provider,
  from: SettingsSource | null,
  name: (p: Provider) => string,
): DefaultNote | null {
  if (!log) return null;
  const d = log.provider;
  if (value !== d.value)
    return {
      text: `${overrider(from, from?.provider === value)} · the log says ${name(d.value)}`,
      title: d.why,
      source: 'override',
      overridden: true,
    };
  const text = d.from === 'model' ? `from the log · ${log.model?.id}` : `from the log · ${log.format} format`;
  return { text, title: d.why, source: d.from, overridden: false };
}
