import { useStore } from '../../state/store.ts';
import { SamplePicker } from './SamplePicker.tsx';

export function Header() {
  const summary = useStore((s) => s.transcript.summary);
  return (
    <header className="header">
      <strong>Tierscope</strong>
      {summary && (
        <span className="muted">
          {' '}
          {summary.fileName} · {summary.format} · {summary.threads.length} threads
        </span>
      )}
      <SamplePicker />
    </header>
  );
}
