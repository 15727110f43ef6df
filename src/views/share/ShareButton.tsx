import { useState } from 'react';
import { useStore } from '../../state/store.ts';
import { ShareDialog } from './ShareDialog.tsx';

/** "Share" in the header (and the `s` key): opens the share dialog for what is on screen. */
export function ShareButton() {
  const ready = useStore((s) => s.transcript.status === 'ready');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        data-testid="share-button"
        disabled={!ready}
        title="Share this view as a link: transcript, settings and selection, nothing uploaded (s)"
        onClick={() => setOpen(true)}
      >
        Share
      </button>
      {open && <ShareDialog onClose={() => setOpen(false)} />}
    </>
  );
}
