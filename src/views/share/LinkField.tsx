import { useRef, useState } from 'react';
import { formatBytes } from '../../protocol/index.ts';
import type { Built } from './share-link.ts';

type Props = {
  /** Test-id prefix: `share` gives share-url, share-copy, share-size, share-download. */
  id: string;
  /** Focus the link when the dialog opens (so Ctrl+C works at once). */
  autoFocus?: boolean;
  value: Built | undefined;
  busy: boolean;
  onDownload: () => Promise<void>;
};

/** A link as selectable text with Copy, its size against the 32 KB / 2 MB policy, and the file download
 *  (offered always, and instead of the link over 2 MB). */
export function LinkField({ id, value, busy, onDownload, autoFocus = false }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'select'>('idle');
  const [saving, setSaving] = useState(false);
  const size = value?.size;
  const copy = () => {
    if (!value) return;
    const fallback = () => {
      area.current?.focus();
      area.current?.select();
      setCopied('select');
    };
    if (!navigator.clipboard) return fallback();
    navigator.clipboard.writeText(value.link).then(() => setCopied('copied'), fallback);
  };
  const download = () => {
    setSaving(true);
    // A failure here is the engine stopping, which the app reports on its own.
    void onDownload()
      .catch(() => undefined)
      .finally(() => setSaving(false));
  };
  const tooBig = size?.class === 'download';
  return (
    <div className="sd-link" aria-busy={busy}>
      {!tooBig && (
        <textarea
          ref={area}
          data-testid={`${id}-url`}
          className="mono sd-url"
          readOnly
          spellCheck={false}
          rows={3}
          value={value?.link ?? ''}
          placeholder={busy ? 'Building the link…' : ''}
          // biome-ignore lint/a11y/noAutofocus: the link is what the dialog is for
          autoFocus={autoFocus}
          data-bytes={size?.bytes}
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      <div className="sd-link-row">
        {!tooBig && (
          <button type="button" className="primary" data-testid={`${id}-copy`} disabled={!value || busy} onClick={copy}>
            {copied === 'copied' ? 'Copied' : 'Copy link'}
          </button>
        )}
        {size && (
          <span data-testid={`${id}-size`} data-size-class={size.class} className={`sd-size sd-size-${size.class} num`}>
            {formatBytes(size.bytes)}
            {size.class === 'ok'
              ? ' · pastes anywhere'
              : size.class === 'warn'
                ? ' · long link'
                : ' · too long for a link'}
          </span>
        )}
        {copied === 'select' && <span className="muted">selected: press Ctrl+C to copy</span>}
        {busy && <span className="muted">building…</span>}
        <button
          type="button"
          className={tooBig ? 'primary sd-download' : 'sd-download'}
          data-testid={`${id}-download`}
          disabled={!value || busy || saving}
          title="A .tierscope.json with the transcript, settings and view; dropping it on Tierscope reopens this view"
          onClick={download}
        >
          {saving ? 'Preparing…' : 'Download .tierscope.json'}
        </button>
      </div>
      {size && size.class !== 'ok' && (
        <div className="sd-size-warning" data-testid={`${id}-size-warning`} role="status">
          ⚠ {size.message.charAt(0).toUpperCase() + size.message.slice(1)}.
        </div>
      )}
    </div>
  );
}
