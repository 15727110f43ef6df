import { useStore } from '../../state/store.ts';
import { LinkWarnings } from '../share/LinkWarnings.tsx';
import { ShareButton } from '../share/ShareButton.tsx';
import { SummarizerConsent } from '../share/SummarizerConsent.tsx';
import { FileInput } from './FileInput.tsx';
import { LoadStatus } from './LoadStatus.tsx';
import { PasteDialog } from './PasteDialog.tsx';
import { SamplePicker } from './SamplePicker.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';

/** Brand, what is loaded, the ways to load something else, and Share. */
export function Header() {
  const toggleHelp = useStore((s) => s.viewActions.toggleHelp);
  return (
    <header className="header">
      <strong className="brand">Tierscope</strong>
      <LoadStatus />
      <LinkWarnings />
      <SummarizerConsent />
      <div className="header-actions">
        <FileInput />
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
