import { useShallow } from 'zustand/react/shallow';
import { type PairingViolation, PROVIDERS, type Provider } from '../../protocol/index.ts';
import { threadRows, useStore } from '../../state/store.ts';
import { FromTheLog } from '../common/FromTheLog.tsx';
import { providerNote } from '../common/log-default-note.ts';
import { RULE_WORDS } from '../common/rule-words.ts';
import './pairing.css';

const PROVIDER_NAMES: Record<Provider, string> = {
  anthropic: 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  gemini: 'Google Gemini',
  bedrock: 'AWS Bedrock Converse',
};

/** Items rendered at most (a pathological log can have thousands). */
const MAX_ITEMS = 400;

function blame(stage: string): string {
  return stage === 'input' ? 'recorded input' : `stage ${stage}`;
}

/**
 * The transcript row to open for a violation. Its messageIndex counts the validated list (the recorded input,
 * or a stage's output, which can be shorter after a summary); when the row with that index does not carry the
 * tool id, the nearest row that does is the better target.
 */
function targetRow(v: PairingViolation): number {
  const rows = threadRows(useStore.getState(), v.thread);
  if (!rows || !v.toolUseId) return v.messageIndex;
  const id = v.toolUseId;
  if (rows[v.messageIndex]?.toolUseIds.includes(id)) return v.messageIndex;
  let best = v.messageIndex;
  let dist = Number.POSITIVE_INFINITY;
  for (const r of rows)
    if (r.toolUseIds.includes(id) && Math.abs(r.index - v.messageIndex) < dist) {
      best = r.index;
      dist = Math.abs(r.index - v.messageIndex);
    }
  return best;
}

function jump(v: PairingViolation) {
  const { view, viewActions } = useStore.getState();
  if (v.thread !== view.thread) viewActions.setThread(v.thread);
  viewActions.selectRequest(v.request);
  viewActions.selectMessage(targetRow(v), true);
}

/** Tool_use/tool_result pairing problems for the chosen provider, in its own words; click to jump. */
export function PairingPanel() {
  const { pairing, provider, ready, multiThread, log, from } = useStore(
    useShallow((s) => ({
      pairing: s.run.result?.pairing,
      provider: s.config.provider,
      log: s.config.log,
      from: s.config.from,
      ready: s.run.result?.settings.provider === s.config.provider,
      multiThread: (s.transcript.summary?.threads.length ?? 0) > 1,
    })),
  );
  const setProvider = useStore((s) => s.configActions.setProvider);
  // The issue a click selected (its request and row), as the URL and a share link restore it.
  const at = useStore(useShallow((s) => ({ thread: s.view.thread, request: s.view.request, message: s.view.message })));
  const note = providerNote(log, provider, from, (p) => PROVIDER_NAMES[p]);
  const errors = pairing?.filter((v) => v.severity === 'error').length ?? 0;
  const warnings = (pairing?.length ?? 0) - errors;
  return (
    <section data-testid="pairing-panel" className="pairing-panel">
      <div className="pp-head">
        <span className="panel-title">Pairing</span>
        {pairing && (
          <span className="pp-counts num">
            {errors > 0 && <span className="pp-sev pp-sev-error">{errors} rejected</span>}
            {warnings > 0 && <span className="pp-sev pp-sev-warning">{warnings} flagged</span>}
          </span>
        )}
        <label className="pp-provider">
          <span className="muted">provider</span>
          <select
            data-testid="provider-select"
            value={provider}
            onChange={(e) => setProvider(e.target.value as Provider)}
          >
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_NAMES[p]}
              </option>
            ))}
          </select>
        </label>
        <FromTheLog
          note={note}
          testId="default-provider"
          resetTestId="reset-provider"
          onReset={log ? () => setProvider(log.provider.value) : undefined}
        />
      </div>
      <div className="pp-list" aria-busy={!ready}>
        {!pairing && <div className="pp-empty muted">Load a transcript to check its pairing.</div>}
        {pairing && pairing.length === 0 && (
          <div className="pp-empty" data-testid="pairing-empty">
            <span className="pp-ok">✓</span> No pairing problems for {PROVIDER_NAMES[provider]}
            {!ready && <span className="muted"> (re-checking…)</span>}
          </div>
        )}
        {pairing?.slice(0, MAX_ITEMS).map((v, i) => (
          <button
            type="button"
            // biome-ignore lint/suspicious/noArrayIndexKey: violations have no id; order is stable per run
            key={i}
            data-testid="pairing-issue"
            data-rule={v.rule}
            data-message-index={v.messageIndex}
            data-stage={v.stage}
            data-severity={v.severity}
            data-thread={v.thread}
            data-request={v.request}
            className={`pp-item pp-item-${v.severity}`}
            aria-current={
              v.thread === at.thread && v.request === at.request && at.message === targetRow(v) ? 'true' : undefined
            }
            title="Jump to the message in the transcript"
            onClick={() => jump(v)}
          >
            <span className="pp-meta">
              <span className={`pp-sev pp-sev-${v.severity}`}>{v.severity === 'error' ? 'rejected' : 'flagged'}</span>
              <span className="pp-rule">{RULE_WORDS[v.rule] ?? v.rule}</span>
              <span className={v.stage === 'input' ? 'pp-blame' : 'pp-blame pp-blame-stage'}>
                blamed: {blame(v.stage)}
              </span>
              <span className="muted num">
                {multiThread ? `${v.thread} · ` : ''}request {v.request} · message {v.messageIndex}
                {v.toolUseId ? ` · ${v.toolUseId}` : ''}
              </span>
            </span>
            <span className="pp-error">{v.error}</span>
          </button>
        ))}
        {pairing && pairing.length > MAX_ITEMS && (
          <div className="pp-empty muted">
            {pairing.length - MAX_ITEMS} more not shown (the CLI's --json lists them all).
          </div>
        )}
      </div>
    </section>
  );
}
