// The engine's share methods (SPEC §7): links, redaction previews, reproductions (minimize with progress and
// cancel) and opening links, all on the transcript the engine holds — the transcript never crosses to the
// main thread; a link crosses as its encoded `s` value and the page adds its own origin. Pure TypeScript over
// src/share, so it runs in the worker and in Node tests alike.
import { analyze } from '../../src/analyses/analyze.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { ByteSource } from '../../src/formats/types.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { isPresetId } from '../../src/pipeline/presets.ts';
import { decodeShare, encodeShare } from '../../src/share/codec.ts';
import type { MinimizeProgress } from '../../src/share/minimize.ts';
import { type ShareSettings, type ShareState, shareOfFileTail, toShareFile } from '../../src/share/payload.ts';
import {
  findWitness,
  formatPredicate,
  type Predicate,
  PredicateError,
  parsePredicate,
} from '../../src/share/predicate.ts';
import { prepareShare, redactedView } from '../../src/share/prepare.ts';
import { type Redaction, type RedactionPreview, redactTranscript } from '../../src/share/redact.ts';
import type { EncodingName, Tokenizer } from '../../src/tokens/tokenizer.ts';
import type {
  EngineApi,
  LoadFailure,
  LoadFile,
  LoadProgress,
  LoadSummary,
  MinimizeReply,
  OpenedShare,
  RunSettings,
  SharedSettings,
  ShareLink,
  ShareReply,
  ShareRequest,
} from '../api.ts';

/** What the share methods need from the engine. */
export type ShareHost = {
  transcript(): Transcript | undefined;
  tokenizer(encoding: EncodingName): Promise<Tokenizer>;
  load(files: LoadFile[], onProgress?: (p: LoadProgress) => void): Promise<LoadSummary | LoadFailure>;
};

type ShareMethods = Pick<EngineApi, 'share' | 'shareFile' | 'minimize' | 'cancelMinimize' | 'openShare'>;

/** Progress crosses to the page at most this often (each crossing is a message). */
const PROGRESS_EVERY_MS = 40;

function shareSettings(s: RunSettings): ShareSettings | string {
  if (!isPresetId(s.preset)) return `unknown preset "${s.preset}"`;
  return { preset: s.preset, config: s.config, mode: s.mode, provider: s.provider, encoding: s.encoding };
}

function runSettings(s: ShareSettings): RunSettings {
  return { preset: s.preset, config: s.config, mode: s.mode, provider: s.provider, encoding: s.encoding };
}

/** Where a share file's `share` part is looked for: toShareFile writes it last, and it is small. */
const SHARE_TAIL = 64 * 1024;

/** Settings and view of a `.tierscope.json` share file (undefined when the bundle carries none), read from its
 *  tail beside the transcript already loaded from it (the file is never parsed twice). */
export function shareInFile(source: ByteSource, loaded: Transcript): SharedSettings | undefined {
  const tail = new TextDecoder().decode(source.read(Math.max(0, source.size - SHARE_TAIL), source.size));
  const d = shareOfFileTail(tail, loaded);
  if (!d?.ok) return undefined;
  return { settings: runSettings(d.state), view: d.state.view, warnings: d.warnings };
}

export function createShareMethods(host: ShareHost): ShareMethods {
  /** The last redaction per transcript (a redacted copy is as big as the transcript, so one is kept), and the
   *  secrets of each transcript (the preview only). Both go with their transcript. */
  const redactions = new WeakMap<Transcript, { key: string; r: Redaction }>();
  const scans = new WeakMap<Transcript, RedactionPreview>();
  let latestToken = 0;
  const cancelled = new Set<number>();
  /** The last reproduction, shared by its token (`ShareRequest.minimized`). */
  let lastMinimized:
    | { token: number; predicate: Predicate; state: ShareState & { source: { kind: 'transcript' } } }
    | undefined;

  async function redacted(t: Transcript, enc: EncodingName, keepPaths: boolean): Promise<Redaction> {
    const key = `${enc}|${keepPaths}`;
    const last = redactions.get(t);
    if (last?.key === key) return last.r;
    const r = redactTranscript(t, { tokenizer: await host.tokenizer(enc), keepPaths });
    redactions.set(t, { key, r });
    return r;
  }

  /** Secret-looking strings in a transcript shared as it is. */
  function secretsIn(t: Transcript): RedactionPreview {
    let p = scans.get(t);
    if (!p) {
      p = redactTranscript(t, { content: false, keepPaths: true }).preview;
      scans.set(t, p);
    }
    return p;
  }

  /** The state a request shares, with what the dialog shows about it: the loaded transcript (or a sample
   *  id), or the last reproduction; redacted when asked (the preview lists what changed), secrets always
   *  listed. */
  async function stateFor(
    req: ShareRequest,
  ): Promise<{ state: ShareState; link: Omit<ShareLink, 'encoded'> } | { error: string }> {
    const checked = shareSettings(req.settings);
    if (typeof checked === 'string') return { error: checked };
    let settings: ShareSettings = checked;
    let view = req.view;
    let t = host.transcript();
    const repro = req.minimized === undefined ? undefined : lastMinimized;
    if (req.minimized !== undefined) {
      if (repro?.token !== req.minimized) return { error: 'that reproduction is gone; minimize again' };
      // Shared with the settings it was minimized under (the predicate holds for those) and its witness.
      const { view: witnessed, source, ...minimizedUnder } = repro.state;
      settings = minimizedUnder;
      view = witnessed;
      t = source.transcript;
    }
    if (!t) return { error: 'nothing is loaded' };
    const notes: string[] = [];
    if (req.redact) {
      const r = await redacted(t, settings.encoding, req.redact.keepPaths);
      if (repro) {
        const tokenizer = await host.tokenizer(settings.encoding);
        if (!findWitness(repro.predicate, analyze(r.transcript, { ...settings, tokenizer }).report))
          notes.push(
            `after redaction ${formatPredicate(repro.predicate)} no longer holds (token counts moved); share it without redaction`,
          );
      }
      // The ids the view points at are written as the redacted transcript writes them.
      const shown = redactedView(view, r.keptValue);
      return {
        state: { ...settings, view: shown, source: { kind: 'transcript', transcript: r.transcript } },
        link: {
          carries: 'transcript',
          view: shown,
          redaction: r.preview,
          secrets: r.preview.secrets,
          secretCount: r.preview.counts.secrets,
          notes,
        },
      };
    }
    const scan = secretsIn(t);
    const secretCount = scan.counts.secrets;
    if (secretCount > 0)
      notes.push(`${secretCount} secret-looking string(s) would be shared as they are; redact to replace them`);
    const sample = req.sample !== undefined && !repro;
    return {
      state: {
        ...settings,
        view,
        source: sample ? { kind: 'sample', id: req.sample ?? '' } : { kind: 'transcript', transcript: t },
      },
      link: {
        carries: sample ? 'sample' : 'transcript',
        view,
        redaction: null,
        secrets: scan.secrets,
        secretCount,
        notes,
      },
    };
  }

  async function share(req: ShareRequest): Promise<ShareReply> {
    const r = await stateFor(req);
    if ('error' in r) return { ok: false, error: r.error };
    return { ok: true, encoded: await encodeShare(r.state), ...r.link };
  }

  return {
    share,

    async shareFile(req: ShareRequest): Promise<string | null> {
      // A file always carries the transcript (a sample id would not open by drop elsewhere).
      const r = await stateFor({ ...req, sample: undefined });
      if ('error' in r || r.state.source.kind !== 'transcript') return null;
      return toShareFile({ ...r.state, source: r.state.source });
    },

    async minimize(token, req, onProgress): Promise<MinimizeReply> {
      latestToken = Math.max(latestToken, token);
      const t = host.transcript();
      if (!t) return { ok: false, token, error: 'nothing is loaded' };
      const settings = shareSettings(req.settings);
      if (typeof settings === 'string') return { ok: false, token, error: settings };
      let predicate: ReturnType<typeof parsePredicate>;
      try {
        predicate = parsePredicate(req.predicate);
      } catch (e) {
        if (e instanceof PredicateError) return { ok: false, token, error: e.message };
        throw e;
      }
      const signal = {
        get aborted() {
          return cancelled.has(token) || token < latestToken;
        },
      };
      let lastSent = Number.NEGATIVE_INFINITY;
      const progress = (p: MinimizeProgress) => {
        const now = performance.now();
        if (!onProgress || now - lastSent < PROGRESS_EVERY_MS) return;
        lastSent = now;
        // A proxied callback answers with a promise; a page that went away must not fail the run.
        void Promise.resolve(onProgress(p)).catch(() => undefined);
      };
      try {
        const tokenizer = await host.tokenizer(settings.encoding);
        // Minimized unredacted; the link applies redaction on top (so toggling it needs no second run).
        const p = await prepareShare(t, settings, tokenizer, {
          predicate,
          redact: null,
          minimize: { maxEvaluations: req.maxEvaluations, signal, onProgress: progress },
        });
        if (token < latestToken) return { ok: false, token, error: 'superseded by a newer run', stale: true };
        if (!p.ok) return { ok: false, token, error: p.error };
        const m = p.minimized;
        if (!m) return { ok: false, token, error: 'nothing was minimized' };
        lastMinimized = { token, predicate: p.predicate ?? predicate, state: p.state };
        const link = await share({ settings: req.settings, view: p.state.view, redact: req.redact, minimized: token });
        if (!link.ok) return { ok: false, token, error: link.error };
        const { ok: _ok, ...shared } = link;
        return {
          ok: true,
          token,
          status: m.status,
          evaluations: m.evaluations,
          before: m.before,
          after: m.after,
          witness: m.witness,
          ...shared,
        };
      } finally {
        cancelled.delete(token);
      }
    },

    async cancelMinimize(token) {
      cancelled.add(token);
    },

    async openShare(link, onProgress): Promise<OpenedShare> {
      const d = await decodeShare(link);
      if (!d.ok) return d;
      const { state } = d;
      const settings = runSettings(state);
      if (state.source.kind === 'sample')
        return { ok: true, kind: 'sample', sample: state.source.id, settings, view: state.view, warnings: d.warnings };
      // Loaded as the bundle it is, so rows, raw views and counting work as for a dropped file; the
      // transcript's own import notes come back as parse issues, not twice as link warnings.
      const text = exportBundle(state.source.transcript);
      const summary = await host.load(
        [{ name: 'shared-link.tierscope.json', buffer: new TextEncoder().encode(text).buffer as ArrayBuffer }],
        onProgress,
      );
      if (!summary.ok) return { ok: false, error: `the transcript in this link cannot be read: ${summary.error}` };
      const name = state.source.transcript.meta.fileName;
      return {
        ok: true,
        kind: 'transcript',
        summary: { ...summary, fileName: name ? `${name.split('/').pop()}` : 'shared transcript' },
        settings,
        view: state.view,
        warnings: d.warnings.filter((w) => !w.startsWith('transcript: ')),
      };
    },
  };
}
