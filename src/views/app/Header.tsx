import { useFolder } from '../../state/folder.ts';
import { useStore } from '../../state/store.ts';
import { OpenFolder } from '../sessions/OpenFolder.tsx';
import { LinkWarnings } from '../share/LinkWarnings.tsx';
import { ShareButton } from '../share/ShareButton.tsx';
import { SummarizerConsent } from '../share/SummarizerConsent.tsx';
import { FileInput } from './FileInput.tsx';
import { LiveBadge } from './LiveBadge.tsx';
import { LoadStatus } from './LoadStatus.tsx';
import { PasteDialog } from './PasteDialog.tsx';
import { SamplePicker } from './SamplePicker.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';

/** Brand, what is loaded, the ways to load something else, and Share. */
export function Header() {
  const toggleHelp = useStore((s) => s.viewActions.toggleHelp);
  const folderOpen = useFolder((s) => s.status !== 'idle');
  const sessionsShown = useFolder((s) => s.shown);
  const showSessions = useFolder((s) => s.folderActions.show);
  const rootName = useFolder((s) => s.rootName);
  return (
    <header className="header">
      <strong className="brand">Tierscope</strong>
      {/* The sessions page is about the folder: the last session's name would read as what is shown. */}
      {sessionsShown ? (
        <span className="header-folder" data-testid="header-folder">
          <span className="muted">sessions in</span> <strong>{rootName ?? 'the folder'}</strong>
        </span>
      ) : (
        <LoadStatus />
      )}
      <LiveBadge />
      <LinkWarnings />
      <SummarizerConsent />
      <div className="header-actions">
        {folderOpen && !sessionsShown && (
          <button type="button" data-testid="sessions-toggle" onClick={() => showSessions(true)}>
            Sessions
          </button>
        )}
        <FileInput />
        <OpenFolder />
        <PasteDialog />
        <SamplePicker />
        <ThemeSwitch />
        <ShareButton />
        <button type="button" className="icon" title="Keyboard shortcuts (?)" onClick={() => toggleHelp()}>
          ?
        </button>
      </div>
    </header>
  );
}
