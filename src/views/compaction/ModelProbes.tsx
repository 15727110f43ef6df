import { useState } from 'react';
import type { ModelProbeResult, ProbeKind } from '../../protocol/index.ts';
import { endpointOrigin } from '../../state/csp.ts';
import { engine } from '../../state/engine-client.ts';
import { askModelProbes, modelProbesBlocked, useSummarizer } from '../../state/summarizer-client.ts';

const WHY: Record<string, string> = {
  'needs-endpoint': 'Set the http summarizer’s endpoint in the config panel’s Summarizer tab to ask a model.',
  'needs-reload': 'Reload the page so its policy allows the endpoint you set.',
  'needs-key': 'Type the API key for the endpoint in the config panel’s Summarizer tab (kept in this tab only).',
};

const TYPE: Record<ModelProbeResult['type'], string> = {
  artifact: 'Artifact',
  recall: 'Recall',
  continuation: 'Continuation',
  decision: 'Decision',
};

type State =
  | { phase: 'idle' }
  | { phase: 'asking' }
  | { phase: 'done'; results: ModelProbeResult[] }
  | { phase: 'error'; error: string };

/** Optional model probes: the skill's four questions asked of the user's own model with only the summary in view,
 *  graded against the ledger. Nothing is sent until the user consents and asks. */
export function ModelProbes({ id, summaryTokens }: { id: string; summaryTokens: number }) {
  const settings = useSummarizer((s) => s.settings);
  // Re-render when the key is typed or forgotten: readiness reads it.
  useSummarizer((s) => s.hasKey);
  const blocked = modelProbesBlocked();
  const [consent, setConsent] = useState(false);
  const [state, setState] = useState<State>({ phase: 'idle' });
  const origin = settings ? endpointOrigin(settings.endpoint) : null;
  const ask = async () => {
    setState({ phase: 'asking' });
    try {
      const calls = (await engine().modelProbes(id)) ?? [];
      const answers = await askModelProbes(calls);
      const results = await engine().gradeModelProbes(id, answers);
      setState(
        results ? { phase: 'done', results } : { phase: 'error', error: 'this compaction is not in the last run' },
      );
    } catch (e) {
      setState({ phase: 'error', error: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <section className="cv-section" data-testid="model-probes">
      <div className="cv-section-title">
        Model probes <span className="muted">· optional: the skill’s four questions, asked with only the summary</span>
      </div>
      {blocked !== null ? (
        <p className="muted cv-none" data-testid="model-probes-off">
          {WHY[blocked] ?? 'The summarizer endpoint is not ready.'} Nothing is sent without your endpoint, key and
          consent.
        </p>
      ) : (
        <div className="cv-ask">
          <label>
            <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} /> Send this summary
            ({summaryTokens.toLocaleString('en-US')} tokens) four times to{' '}
            <span className="mono">{origin?.ok ? origin.origin : settings?.endpoint}</span> ({settings?.model})
          </label>{' '}
          <button
            type="button"
            data-testid="ask-model"
            disabled={!consent || state.phase === 'asking'}
            onClick={() => void ask()}
          >
            {state.phase === 'asking' ? 'Asking…' : 'Ask the model'}
          </button>
        </div>
      )}
      {state.phase === 'error' && (
        <p className="error-text" role="alert">
          {state.error}
        </p>
      )}
      {state.phase === 'done' && (
        <ul className="cv-model">
          {state.results.map((r) => (
            <li key={r.type} data-testid="model-probe" data-type={r.type}>
              <div>
                <b>{TYPE[r.type]}</b> <span className="muted">— {r.question}</span>
              </div>
              {r.error !== null ? (
                <div className="error-text">{r.error}</div>
              ) : (
                <pre className="mono cv-answer">{r.answer}</pre>
              )}
              {r.graded === null && r.error === null && (
                <div className="muted">Not graded: a decision has no exact anchor in the log.</div>
              )}
              {r.graded &&
                (Object.entries(r.graded) as [ProbeKind, { kept: unknown[]; lost: { text: string }[] }][]).map(
                  ([kind, p]) => (
                    <div key={kind} className="num">
                      {kind}: named {p.kept.length} of {p.kept.length + p.lost.length}
                      {p.lost.length > 0 && (
                        <span className="cv-lost-count"> · missed {p.lost.map((x) => x.text).join(', ')}</span>
                      )}
                    </div>
                  ),
                )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
