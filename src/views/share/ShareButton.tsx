import { useState } from 'react';
import { useFolder } from '../../state/folder.ts';
import { useStore } from '../../state/store.ts';
import { ShareDialog } from './ShareDialog.tsx';

/** "Share" in the header (and the `s` key): opens the share dialog for what is on screen — any view of a
 *  transcript, the compaction view included; not the sessions table (open a session to share it). */
export function ShareButton() {
  const table = useFolder((s) => s.shown);
  const ready = useStore((s) => s.transcript.status === 'ready') && !table;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        data-testid="share-button"
        disabled={!ready}
        title={
          table
            ? 'Open a session to share it'
            : 'Share this view as a link: transcript, settings and what is open and selected, nothing uploaded (s)'
        }
        onClick={() => setOpen(true)}
      >
        Share
      </button>
      {open && <ShareDialog onClose={() => setOpen(false)} />}
    </>
  );
}
