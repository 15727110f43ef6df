// The share payload (SPEC §7): settings, view and transcript (or a bundled sample id) as plain JSON, the
// same for links and for `.tierscope.json` share files. Writing leaves defaults out and stores only the
// config keys that differ from the preset; reading is versioned and fails per field (Firefox Profiler /
// Perfetto URL state): a bad field falls back to its default with a warning, only an unreadable
// transcript is fatal.

import { importBundle, toBundle } from '../formats/tierscope.ts';
import { pushAll } from '../lib/arrays.ts';
import { isObject, tryParseJson } from '../lib/json.ts';
import type { ParseIssue, Transcript } from '../model/transcript.ts';
import { PROVIDERS } from '../pairing/types.ts';
import { KEY_SPECS, mergeConfig, type PipelineConfig } from '../pipeline/config.ts';
import { PRESET_IDS, type PresetId, presetConfig } from '../pipeline/presets.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import { ENCODINGS } from '../tokens/encodings.ts';
import {
  DEFAULT_SETTINGS,
  SHARE_VERSION,
  type SharePayload,
  type ShareSettings,
  settingsPayload,
} from './settings-payload.ts';
import { DEFAULT_VIEW, readPayloadView, type View } from './view.ts';

export type { ShareSettings } from './settings-payload.ts';

type ShareSource = { kind: 'transcript'; transcript: Transcript } | { kind: 'sample'; id: string };

export type ShareState = ShareSettings & { view: View; source: ShareSource };

export type DecodedShare = { ok: true; state: ShareState; warnings: string[] } | { ok: false; error: string };

const MODES: readonly ReplayMode[] = ['recorded', 'raw'];

/** The payload of a share state. */
export function toPayload(state: ShareState): SharePayload {
  const out: SharePayload = settingsPayload(state);
  if (state.source.kind === 'sample') out.sample = state.source.id;
  else out.transcript = toBundle(state.source.transcript);
  return out;
}

function pick<T extends string>(
  doc: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
  fallback: T,
  warn: (m: string) => void,
) {
  const v = doc[key];
  if (v === undefined) return fallback;
  if (typeof v === 'string' && allowed.includes(v as T)) return v as T;
  warn(`${key} ${JSON.stringify(v)} is not one of ${allowed.join(', ')}; using ${fallback}`);
  return fallback;
}

/** Preset and config from a payload's `config` field; every bad key falls back to the preset's value. */
function readConfig(raw: unknown, warn: (m: string) => void): { preset: PresetId; config: PipelineConfig } {
  if (raw === undefined) return { preset: DEFAULT_SETTINGS.preset, config: presetConfig(DEFAULT_SETTINGS.preset) };
  if (!isObject(raw)) {
    warn('config is not an object; using the seeds preset');
    return { preset: DEFAULT_SETTINGS.preset, config: presetConfig(DEFAULT_SETTINGS.preset) };
  }
  const preset = pick(raw, 'preset', PRESET_IDS, DEFAULT_SETTINGS.preset, warn);
  let config = presetConfig(preset);
  const known = new Set(KEY_SPECS.map((s) => s.key));
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'preset') continue;
    if (!known.has(key)) {
      warn(`config key "${key}" is unknown; ignored`);
      continue;
    }
    try {
      config = mergeConfig(config, { [key]: value });
    } catch (e) {
      warn(`config ${e instanceof Error ? e.message : String(e)}; using the ${preset} value`);
    }
  }
  return { preset, config };
}

/** A view checked against the transcript it will be shown on: unknown thread or out-of-range indices
 *  fall back to the default (first thread, nothing selected) with a warning each. */
function checkView(view: View, t: Transcript): { view: View; warnings: string[] } {
  const warnings: string[] = [];
  const out = { ...view };
  const th = out.thread === null ? t.threads[0] : t.threads.find((x) => x.id === out.thread);
  if (!th) {
    warnings.push(`view.thread "${out.thread}" is not in the transcript; showing the first thread`);
    return { view: { ...DEFAULT_VIEW }, warnings };
  }
  if (out.request !== null && out.request >= th.requests.length) {
    warnings.push(`view.request ${out.request} is out of range (thread has ${th.requests.length}); ignored`);
    out.request = null;
  }
  if (out.selection !== null && out.selection >= th.messages.length) {
    warnings.push(`view.selection ${out.selection} is out of range (thread has ${th.messages.length}); ignored`);
    out.selection = null;
  }
  if (out.range !== null && out.range.to >= th.requests.length) {
    warnings.push(
      `view.range ${out.range.from}-${out.range.to} is out of range (thread has ${th.requests.length}); ignored`,
    );
    out.range = null;
  }
  return { view: out, warnings };
}

function readTranscript(raw: unknown): { ok: true; t: Transcript; warnings: string[] } | { ok: false; error: string } {
  const issues: ParseIssue[] = [];
  const t = importBundle(raw, { issue: (i) => issues.push(i) });
  const fatal = issues.find((i) => i.severity === 'error');
  if (fatal) return { ok: false, error: `the transcript in this link cannot be read: ${fatal.message}` };
  if (t.threads.length === 0) return { ok: false, error: 'the transcript in this link has no threads' };
  return { ok: true, t, warnings: issues.map((i) => `transcript: ${i.message}`) };
}

/** Read a payload (already JSON-parsed); `loaded`: its transcript, already read (a share file's). Never throws. */
export function fromPayload(doc: unknown, loaded?: Transcript): DecodedShare {
  if (!isObject(doc)) return { ok: false, error: 'this link does not hold a Tierscope share (not a JSON object)' };
  if (doc.v !== SHARE_VERSION) {
    return {
      ok: false,
      error:
        typeof doc.v === 'number' && doc.v > SHARE_VERSION
          ? `this link was made by a newer Tierscope (share format v${doc.v}); this Tierscope reads v${SHARE_VERSION} — update Tierscope to open it`
          : `this link holds an unknown share format (v=${JSON.stringify(doc.v)}); this Tierscope reads v${SHARE_VERSION}`,
    };
  }
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  let source: ShareSource;
  if (loaded) source = { kind: 'transcript', transcript: loaded };
  else if (doc.transcript !== undefined) {
    const r = readTranscript(doc.transcript);
    if (!r.ok) return r;
    pushAll(warnings, r.warnings);
    source = { kind: 'transcript', transcript: r.t };
  } else if (typeof doc.sample === 'string' && doc.sample !== '') {
    source = { kind: 'sample', id: doc.sample };
  } else {
    return { ok: false, error: 'this link carries neither a transcript nor a sample id' };
  }
  const { preset, config } = readConfig(doc.config, warn);
  const read = readPayloadView(doc.view);
  pushAll(warnings, read.warnings);
  let view = read.view;
  if (source.kind === 'transcript') {
    const checked = checkView(view, source.transcript);
    view = checked.view;
    pushAll(warnings, checked.warnings);
  }
  const state: ShareState = {
    preset,
    config,
    mode: pick(doc, 'mode', MODES, DEFAULT_SETTINGS.mode, warn),
    provider: pick(doc, 'provider', PROVIDERS, DEFAULT_SETTINGS.provider, warn),
    encoding: pick(doc, 'encoding', ENCODINGS, DEFAULT_SETTINGS.encoding, warn),
    view,
    source,
  };
  return { ok: true, state, warnings };
}

/** A `.tierscope.json` share file: a normal bundle (any Tierscope loads it by drop) plus a `share` field
 *  with the settings and view, so opening it restores the same view. For links over 2 MB. */
export function toShareFile(state: ShareState & { source: { kind: 'transcript' } }): string {
  return JSON.stringify({ ...toBundle(state.source.transcript), share: settingsPayload(state) });
}

/** The settings and view of a share file from its tail (toShareFile writes `share` last, and it is small) and the
 *  transcript already loaded from the file: the file is not parsed again (parsed whole with JSON.parse and
 *  narrowed, a 30,000-deep value overflowed the stack, where the bundle loader cuts it). Null when the tail holds
 *  no share part. */
export function shareOfFileTail(tail: string, loaded: Transcript): DecodedShare | null {
  const at = tail.lastIndexOf('"share":{"v":');
  const end = tail.lastIndexOf('}');
  if (at < 0 || end <= at) return null;
  const r = tryParseJson(tail.slice(at + '"share":'.length, end));
  if (!r.ok || !isObject(r.value)) return null;
  const { transcript: _t, sample: _s, ...share } = r.value;
  return fromPayload(share, loaded);
}

/** Read a share file (parsed JSON); null when the document is not one (a plain bundle, another format). */
export function fromShareFile(doc: unknown): DecodedShare | null {
  if (!isObject(doc) || !isObject(doc.share) || !('tierscope' in doc)) return null;
  const { share, ...bundle } = doc;
  return fromPayload({ ...share, transcript: bundle, sample: undefined });
}
