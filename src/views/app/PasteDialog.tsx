import { useEffect, useRef, useState } from 'react';
import { useStore } from '../../state/store.ts';

/** A name for pasted text, so the format sniffers get the same hint a file would give. */
function pastedName(text: string): string {
  const lines = text.trim().split('\n', 3);
  return lines.length > 1 && lines.every((l) => l.trim().startsWith('{')) ? 'pasted.jsonl' : 'pasted.json';
}

/** "Paste": a dialog with a text area for JSON or JSONL copied from somewhere. */
export function PasteDialog() {
  const loadText = useStore((s) => s.transcriptActions.loadText);
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const submit = () => {
    if (!text.trim()) return;
    const t = text;
    setOpen(false);
    setText('');
    void loadText(pastedName(t), t);
  };
  return (
    <>
      <button type="button" data-testid="paste-button" onClick={() => setOpen(true)} title="Paste JSON or JSONL">
        Paste
      </button>
      <dialog ref={ref} className="paste-dialog" data-testid="paste-dialog" onClose={() => setOpen(false)}>
        <div className="dialog-title">Paste a transcript</div>
        <p className="muted">
          JSON or JSONL in any supported format (Claude Code, claude-trace, Anthropic or OpenAI requests, Codex,
          Inspect, SWE-agent, a Tierscope bundle). It stays in this tab.
        </p>
        <textarea
          data-testid="paste-text"
          className="mono"
          spellCheck={false}
          value={text}
          placeholder='{"type":"user","message":{…}}'
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
          }}
        />
        <div className="dialog-actions">
          <span className="muted">Ctrl+Enter loads</span>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="button" className="primary" data-testid="paste-load" disabled={!text.trim()} onClick={submit}>
            Load
          </button>
        </div>
      </dialog>
    </>
  );
}
