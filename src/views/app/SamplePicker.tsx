import { useStore } from '../../state/store.ts';
import { DEFAULT_SAMPLE, sampleUrl } from './use-startup.ts';

export function SamplePicker() {
  const loadUrl = useStore((s) => s.transcriptActions.loadUrl);
  return (
    <select
      data-testid="sample-picker"
      defaultValue=""
      onChange={(e) => {
        if (e.target.value) void loadUrl(sampleUrl(e.target.value), { kind: 'sample', name: e.target.value });
      }}
    >
      <option value="">Samples…</option>
      <option value={DEFAULT_SAMPLE}>The 37.1 story</option>
    </select>
  );
}
