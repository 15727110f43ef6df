// One entry point for "make a shareable reproduction" used by the CLI now and the worker later: optionally
// minimize against a predicate, optionally redact (secrets are always counted), and assemble the share
// state with a view pointing at the failure. Pure apart from the async minimizer; no I/O.
import { type AnalyzeOptions, analyze } from '../analyses/analyze.ts';
import type { Transcript } from '../model/transcript.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type MinimizeOptions, type MinimizeResult, minimize } from './minimize.ts';
import type { ShareSettings, ShareState } from './payload.ts';
import {
  anchorPredicate,
  describeFindings,
  findWitness,
  formatPredicate,
  type Predicate,
  predicateTester,
  type Witness,
} from './predicate.ts';
import { type RedactionPreview, type RedactOptions, redactTranscript } from './redact.ts';
import { DEFAULT_VIEW, type View } from './view.ts';

export type PrepareOptions = {
  predicate?: Predicate;
  /** Redaction options, or null for none (secrets are then only counted, not replaced). */
  redact?: RedactOptions | null;
  /** The view the link opens on (a reproduction's default: where its predicate holds). */
  view?: View;
  minimize?: Omit<MinimizeOptions, 'onProgress'> & { onProgress?: MinimizeOptions['onProgress'] };
};

export type Prepared = {
  ok: true;
  state: ShareState & { source: { kind: 'transcript'; transcript: Transcript } };
  minimized: Extract<MinimizeResult, { ok: true }> | null;
  /** The predicate as the reproduction keeps it (anchored to what it found in the input). */
  predicate: Predicate | null;
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
  let predicate: Predicate | null = null;
  if (o.predicate) {
    const report = analyze(t, analyzeOptions).report;
    const p = anchorPredicate(o.predicate, report);
    const r = findWitness(p, report) ? await minimize(t, predicateTester(p, analyzeOptions), o.minimize) : null;
    if (!r?.ok) {
      const found = describeFindings(p, report);
      return { ok: false, error: `${formatPredicate(p)} does not hold on this transcript (${found})` };
    }
    minimized = r;
    predicate = p;
    t = r.transcript;
    view = o.view ?? witnessView(r.witness);
  }
  let redaction: RedactionPreview | null = null;
  let secretsShared = 0;
  if (o.redact) {
    const r = redactTranscript(t, { tokenizer, ...o.redact });
    redaction = r.preview;
    t = r.transcript;
    view = redactedView(view, r.keptValue);
    if (predicate && !findWitness(predicate, analyze(t, analyzeOptions).report)) {
      notes.push(
        `after redaction ${formatPredicate(predicate)} no longer holds (token counts moved); share without redaction or loosen the predicate`,
      );
    }
  } else {
    secretsShared = redactTranscript(t, { content: false, previewLimit: 0 }).preview.counts.secrets;
    if (secretsShared > 0)
      notes.push(`${secretsShared} secret-looking string(s) are in the shared transcript; redact to replace them`);
  }
  const state = { ...settings, view, source: { kind: 'transcript' as const, transcript: t } };
  return { ok: true, state, minimized, predicate, redaction, secretsShared, notes };
}

/** A view on the redacted copy: the ids it names (thread, compaction) as the redaction wrote them. */
export function redactedView(v: View, kept: (s: string) => string): View {
  return {
    ...v,
    thread: v.thread === null ? null : kept(v.thread),
    compaction: v.compaction === null ? null : kept(v.compaction),
  };
}

/** The view a reproduction opens on: where its predicate holds (a compaction finding: the compaction view with
 *  the lost item focused). */
function witnessView(w: Witness): View {
  return {
    ...DEFAULT_VIEW,
    thread: w.thread,
    request: w.request,
    selection: w.message,
    compaction: w.compaction ?? null,
    probe: w.probe ?? null,
  };
}
