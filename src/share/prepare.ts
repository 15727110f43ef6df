// One entry point for "make a shareable reproduction" used by the CLI now and the worker later: optionally
// minimize against a predicate, optionally redact (secrets are always counted), and assemble the share
// state with a view pointing at the failure. Pure apart from the async minimizer; no I/O.
import { type AnalyzeOptions, analyze } from '../analyses/analyze.ts';
import type { Transcript } from '../model/transcript.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type MinimizeOptions, type MinimizeResult, minimize } from './minimize.ts';
import { DEFAULT_VIEW, type ShareSettings, type ShareState, type ShareView } from './payload.ts';
import { describeFindings, findWitness, formatPredicate, type Predicate, predicateTester } from './predicate.ts';
import { type RedactionPreview, type RedactOptions, redactTranscript } from './redact.ts';

export type PrepareOptions = {
  predicate?: Predicate;
  /** Redaction options, or null for none (secrets are then only counted, not replaced). */
  redact?: RedactOptions | null;
  view?: ShareView;
  minimize?: Omit<MinimizeOptions, 'onProgress'> & { onProgress?: MinimizeOptions['onProgress'] };
};

export type Prepared = {
  ok: true;
  state: ShareState & { source: { kind: 'transcript'; transcript: Transcript } };
  minimized: Extract<MinimizeResult, { ok: true }> | null;
  redaction: RedactionPreview | null;
  /** Secret-looking strings in what is shared (0 after redaction, which replaces them). */
  secretsShared: number;
  /** Human notes for the CLI's stderr / the dialog (predicate lost after redaction, …). */
  notes: string[];
};

export async function prepareShare(
  input: Transcript,
  settings: ShareSettings,
  tokenizer: Tokenizer,
  o: PrepareOptions = {},
): Promise<Prepared | { ok: false; error: string }> {
  const analyzeOptions: AnalyzeOptions = {
    config: settings.config,
    preset: settings.preset,
    mode: settings.mode,
    provider: settings.provider,
    tokenizer,
  };
  const notes: string[] = [];
  let t = input;
  let view = o.view ?? { ...DEFAULT_VIEW };
  let minimized: Prepared['minimized'] = null;
  if (o.predicate) {
    const p = o.predicate;
    const r = await minimize(t, predicateTester(p, analyzeOptions), o.minimize);
    if (!r.ok) {
      const found = describeFindings(p, analyze(t, analyzeOptions).report);
      return { ok: false, error: `${formatPredicate(p)} does not hold on this transcript (${found})` };
    }
    minimized = r;
    t = r.transcript;
    view = { thread: r.witness.thread, request: r.witness.request, selection: r.witness.message };
  }
  let redaction: RedactionPreview | null = null;
  let secretsShared = 0;
  if (o.redact) {
    const r = redactTranscript(t, { tokenizer, ...o.redact });
    redaction = r.preview;
    t = r.transcript;
    if (view.thread !== null) view = { ...view, thread: r.keptValue(view.thread) };
    if (o.predicate && !findWitness(o.predicate, analyze(t, analyzeOptions).report)) {
      notes.push(
        `after redaction ${formatPredicate(o.predicate)} no longer holds (token counts moved); share without redaction or loosen the predicate`,
      );
    }
  } else {
    secretsShared = redactTranscript(t, { content: false, previewLimit: 0 }).preview.counts.secrets;
    if (secretsShared > 0)
      notes.push(`${secretsShared} secret-looking string(s) are in the shared transcript; redact to replace them`);
  }
  const state = { ...settings, view, source: { kind: 'transcript' as const, transcript: t } };
  return { ok: true, state, minimized, redaction, secretsShared, notes };
}
