import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type ApiKind, allowedOrigin, endpointOrigin, forgetEndpoint, saveEndpoint } from '../../state/csp.ts';
import { useStore } from '../../state/store.ts';
import {
  DEFAULT_ENDPOINTS,
  retryFailed,
  type SummarizerPhase,
  setApiKey,
  setEndpointSettings,
  useSummarizer,
} from '../../state/summarizer-client.ts';
import './summarizer.css';

const KINDS: { id: ApiKind; label: string }[] = [
  { id: 'openai', label: 'OpenAI-compatible chat completions' },
  { id: 'anthropic', label: 'Anthropic messages' },
];

const PHASE: Record<SummarizerPhase, string> = {
  off: 'Not in use: the summarizer config key is not http.',
  'needs-consent': 'Waiting for your yes: the loaded share link chose the http summarizer (see the notice at the top).',
  'needs-endpoint': 'Waiting for an endpoint: type one above and allow it.',
  'needs-reload': 'The endpoint is not allowed yet: press Allow & reload.',
  'needs-key': 'Waiting for the API key.',
  calling: 'Calling the endpoint…',
  done: 'Up to date: the run has every summary it asked for.',
  stopped: 'Stopped.',
};

/** Where the http summarizer sends its calls, with which key (memory only), and how the calls went. */
export function SummarizerSettings() {
  const status = useSummarizer();
  const { summarizer, result, setKey, selectEvent, selectMessage, setThread, thread } = useStore(
    useShallow((s) => ({
      summarizer: s.config.config.summarizer,
      result: s.run.result,
      setKey: s.configActions.setKey,
      selectEvent: s.viewActions.selectEvent,
      selectMessage: s.viewActions.selectMessage,
      setThread: s.viewActions.setThread,
      thread: s.view.thread,
    })),
  );
  const saved = status.settings;
  const [kind, setKind] = useState<ApiKind>(saved?.kind ?? 'openai');
  const [endpoint, setEndpoint] = useState(saved?.endpoint ?? '');
  const [model, setModel] = useState(saved?.model ?? '');
  const [key, setKeyDraft] = useState('');
  const allowed = allowedOrigin();
  const check = endpoint.trim() ? endpointOrigin(endpoint) : null;
  const needsReload = check?.ok === true && check.origin !== allowed;
  const changed = !saved || saved.endpoint !== endpoint.trim() || saved.kind !== kind || saved.model !== model.trim();
  const canApply = check?.ok === true && model.trim() !== '' && (changed || needsReload);

  const apply = () => {
    if (!check?.ok) return;
    const next = { endpoint: endpoint.trim(), kind, model: model.trim() };
    if (saveEndpoint(next)) {
      // The policy of a running page cannot be relaxed: the new document allows the new origin.
      window.location.reload();
      return;
    }
    setEndpointSettings(next);
  };
  const commitKey = () => {
    setApiKey(key);
    setKeyDraft('');
  };

  // The worker counts the http summarizer's outputs and sends the first 40 (the run's events stay there).
  const summaries = result?.settings.config.summarizer === 'http' ? result.summaries : null;
  const outputs = summaries?.shown ?? [];
  const resultSummaries = summaries?.results ?? 0;
  const turnSummaries = summaries?.turns ?? 0;

  return (
    <div className="cfg-summarizer" data-testid="summarizer-settings">
      <p className="muted">
        The <code>http</code> summarizer writes Tier-2 result summaries and turn summaries with a model you name, called
        from this page. The page’s Content-Security-Policy lets it connect to{' '}
        <strong data-testid="summarizer-allowed-origin">{allowed ?? 'this origin only'}</strong>
        {allowed ? ' and this origin, nothing else' : ''}. Allowing another endpoint reloads the page: a policy can be
        narrowed while the page runs, never widened.
      </p>
      <div className="sum-grid">
        <label>
          <span className="muted">API</span>
          <select data-testid="summarizer-kind" value={kind} onChange={(e) => setKind(e.target.value as ApiKind)}>
            {KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted">endpoint URL</span>
          <input
            data-testid="summarizer-endpoint"
            type="url"
            spellCheck={false}
            autoComplete="off"
            placeholder={DEFAULT_ENDPOINTS[kind]}
            value={endpoint}
            onChange={(e) => setEndpoint(e.target.value)}
          />
        </label>
        <label>
          <span className="muted">model</span>
          <input
            data-testid="summarizer-model"
            spellCheck={false}
            autoComplete="off"
            placeholder={kind === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4o-mini'}
            value={model}
            onChange={(e) => setModel(e.target.value)}
          />
        </label>
        <div className="sum-actions">
          <button type="button" data-testid="summarizer-apply" disabled={!canApply} onClick={apply}>
            {needsReload ? 'Allow & reload' : 'Apply'}
          </button>
          {saved && (
            <button
              type="button"
              data-testid="summarizer-forget-endpoint"
              onClick={() => {
                if (forgetEndpoint()) window.location.reload();
                else setEndpointSettings(null);
              }}
            >
              Forget endpoint
            </button>
          )}
        </div>
      </div>
      {check && !check.ok && (
        <div className="error-text" data-testid="summarizer-endpoint-error">
          {check.error}
        </div>
      )}
      {needsReload && (
        <div className="muted">
          Allowing <code>{check.origin}</code> reloads the page: the loaded transcript and the key are cleared (samples
          and <code>?src=</code> reopen).
        </div>
      )}
      <div className="sum-grid">
        <label>
          <span className="muted">API key</span>
          <input
            data-testid="summarizer-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            data-1p-ignore
            data-lpignore="true"
            placeholder={status.hasKey ? '•••••••• (set for this tab)' : 'paste the key, then Enter'}
            value={key}
            onChange={(e) => setKeyDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitKey();
            }}
          />
        </label>
        <div className="sum-actions">
          <button type="button" data-testid="summarizer-set-key" disabled={key.trim() === ''} onClick={commitKey}>
            Set key
          </button>
          {status.hasKey && (
            <button type="button" data-testid="summarizer-forget-key" onClick={() => setApiKey('')}>
              Forget key
            </button>
          )}
        </div>
      </div>
      <p className="sum-key-note" data-testid="summarizer-key-note">
        The key stays in this tab’s memory only: it is never saved (no localStorage, sessionStorage or IndexedDB), never
        put in the URL, share links or exports, never logged, and it is sent only to the endpoint above. Reloading or
        closing the tab forgets it.
      </p>
      <div className="sum-use">
        {summarizer === 'http' ? (
          <span>
            The <code>summarizer</code> key is <strong>http</strong>.
          </span>
        ) : (
          <button
            type="button"
            data-testid="summarizer-use"
            disabled={!saved || !status.hasKey}
            onClick={() => setKey('summarizer', 'http')}
          >
            Use the http summarizer
          </button>
        )}
      </div>
      <div className="sum-status" data-testid="summarizer-status" data-phase={status.phase} aria-live="polite">
        <div>
          {status.phase === 'done' && status.failed > 0
            ? 'Settled: the run has an answer for every call it made, failures included.'
            : PHASE[status.phase]}
          {status.pending > 0 && status.phase !== 'done' ? ` ${status.pending} call(s) pending.` : ''}
        </div>
        <div className="num muted" data-testid="summarizer-counts">
          {status.ok} answered · {status.failed} failed{status.inFlight > 0 ? ` · ${status.inFlight} in flight` : ''}
        </div>
        {status.note && <div className="error-text">{status.note}</div>}
        {status.errors.length > 0 && (
          <ul className="sum-errors">
            {status.errors.map((e) => (
              <li key={e.text} className="error-text" data-testid="summarizer-error">
                {e.text}
                {e.count > 1 ? ` (×${e.count})` : ''}
              </li>
            ))}
          </ul>
        )}
        {status.failed > 0 && (
          <button type="button" data-testid="summarizer-retry" onClick={retryFailed}>
            Retry failed calls
          </button>
        )}
        {status.failed > 0 && (
          <div className="muted">
            Failed calls count against the per-pass attempt budget and the circuit breaker like any failed summary; the
            pipeline falls back to truncation.
          </div>
        )}
      </div>
      {outputs.length > 0 && (
        <div className="sum-outputs">
          <div className="muted" data-testid="summarizer-output-count">
            In this run: {resultSummaries} tool-result {resultSummaries === 1 ? 'summary' : 'summaries'} ·{' '}
            {turnSummaries} turn {turnSummaries === 1 ? 'summary' : 'summaries'}
          </div>
          <ol>
            {outputs.map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  data-testid="summarizer-output"
                  data-action={e.action}
                  data-event-id={e.id}
                  onClick={() => {
                    if (e.thread !== thread) setThread(e.thread);
                    if (e.messageIndex >= 0) selectMessage(e.messageIndex, true);
                    selectEvent(e.id);
                  }}
                >
                  req {e.request} · {e.action === 'summarize' ? 'turn summary' : `message ${e.messageIndex}`} ·{' '}
                  {e.charsBefore.toLocaleString('en-US')} → {e.charsAfter.toLocaleString('en-US')} chars
                </button>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
