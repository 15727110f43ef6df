import { useEffect, useMemo, useRef, useState } from 'react';
import type { ShareRequest } from '../../protocol/index.ts';
import { settingsPayload } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { useStore } from '../../state/store.ts';
import { LinkField } from './LinkField.tsx';
import { MinimizeSection } from './MinimizeSection.tsx';
import { RedactionPreview, SecretsList } from './RedactionPreview.tsx';
import { downloadText, requestOf, shareFileName, useShareLink, viewWords } from './share-link.ts';
import './share.css';

/** What the link carries besides the transcript, in words (exactly the settings it encodes). */
function carried(base: Omit<ShareRequest, 'redact'>): string[] {
  const p = settingsPayload({ ...base.settings, preset: base.settings.preset as 'seeds', view: base.view });
  const out: string[] = [];
  const { preset = 'seeds', ...keys } = p.config ?? {};
  const changed = Object.entries(keys).map(([k, v]) => `${k} ${JSON.stringify(v)}`);
  out.push(`preset ${String(preset)}${changed.length > 0 ? ` + ${changed.join(', ')}` : ''}`);
  for (const k of ['mode', 'provider', 'encoding'] as const) if (p[k]) out.push(`${k} ${p[k]}`);
  out.push(`view: ${viewWords(base.view).join(' · ')}`);
  return out;
}

/** The share dialog (SPEC §6–7): the link for what is on screen, opt-in redaction with its preview, size
 *  warnings and the file download, and Minimize. Opened by the Share button or `s`. */
export function ShareDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // The dialog is modal: what is on screen cannot change while it is open.
  const { base, fileName, messages, summarizer } = useMemo(() => {
    const s = useStore.getState();
    return {
      base: requestOf(s),
      fileName: s.transcript.summary?.fileName,
      messages: s.transcript.summary?.counts.messages ?? 0,
      summarizer: s.config.config.summarizer,
    };
  }, []);
  const [redact, setRedact] = useState(false);
  const [keepPaths, setKeepPaths] = useState(true);
  const redactOpt = redact ? { keepPaths } : null;
  const key = redact ? `redact:${keepPaths}` : 'plain';
  const link = useShareLink({ ...base, redact: redactOpt }, key);
  const value = link.status === 'ready' ? link.value : link.status === 'working' ? link.last : undefined;
  const busy = link.status === 'working';

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const download = async () => {
    const text = await engine().shareFile({ ...base, redact: redactOpt });
    if (text !== null) downloadText(shareFileName(fileName), text);
  };

  const carries =
    value?.carries === 'sample'
      ? `the bundled sample "${base.sample}" by name (every Tierscope has it)`
      : `the transcript itself (${messages.toLocaleString('en-US')} messages${redact ? ', redacted' : ''})`;

  return (
    <dialog
      ref={ref}
      className="share-dialog"
      data-testid="share-dialog"
      aria-labelledby="share-title"
      onClose={onClose}
    >
      <div className="sd-head">
        <div className="dialog-title" id="share-title">
          Share this view
        </div>
        <button
          type="button"
          className="icon"
          aria-label="Close"
          title="Close (Esc)"
          onClick={() => ref.current?.close()}
        >
          ×
        </button>
      </div>
      <p className="muted sd-hint">
        Everything rides in the link's <span className="mono">#fragment</span>, which browsers never send to a server:
        nothing is uploaded. Whoever opens it sees the same analysis, settings and selection.
      </p>
      <ul className="sd-carries" data-testid="share-carries">
        <li>Carries {carries}</li>
        {carried(base).map((line) => (
          <li key={line} className="mono">
            {line}
          </li>
        ))}
        {summarizer === 'http' && (
          <li className="sev-warning">
            The summarizer is http: the endpoint and key are not in the link; the recipient uses their own.
          </li>
        )}
      </ul>
      {link.status === 'error' && (
        <div className="error-text" role="alert" data-testid="share-error">
          {link.error}
        </div>
      )}
      <LinkField id="share" value={value} busy={busy} onDownload={download} autoFocus />

      <section className="sd-section">
        <div className="sd-section-title">Redaction</div>
        <div className="sd-row">
          <label>
            <input
              type="checkbox"
              data-testid="redact-toggle"
              checked={redact}
              onChange={(e) => setRedact(e.target.checked)}
            />{' '}
            Redact content <span className="muted">(text and tool output become same-length filler)</span>
          </label>
          <label className={redact ? '' : 'muted'}>
            <input
              type="checkbox"
              data-testid="redact-paths"
              disabled={!redact}
              checked={!keepPaths}
              onChange={(e) => setKeepPaths(!e.target.checked)}
            />{' '}
            file paths too
          </label>
        </div>
        {redact && <RedactionPreview preview={value?.redaction ?? null} busy={busy} />}
        {!redact && value && value.secretCount > 0 && (
          <div className="sd-secrets-warning" data-testid="secrets-warning" role="alert">
            <div className="sev-warning">
              ⚠ {value.secretCount.toLocaleString('en-US')} secret-looking string
              {value.secretCount === 1 ? '' : 's'} would be shared as {value.secretCount === 1 ? 'it is' : 'they are'}:
              turn on redaction to replace {value.secretCount === 1 ? 'it' : 'them'}.
            </div>
            <SecretsList secrets={value.secrets} replaced={false} />
          </div>
        )}
      </section>

      <MinimizeSection base={base} redact={redactOpt} fileName={fileName} />

      <div className="dialog-actions">
        <span className="muted">
          <kbd>Esc</kbd> closes
        </span>
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
