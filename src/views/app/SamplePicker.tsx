import { useEffect, useState } from 'react';
import type { SampleEntry } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { loadManifest, openSample } from './use-startup.ts';

/** The bundled samples (public/samples/index.json); choosing one applies its settings and loads it. */
export function SamplePicker() {
  const source = useStore((s) => s.transcript.source);
  const [samples, setSamples] = useState<SampleEntry[]>([]);
  useEffect(() => {
    let live = true;
    void loadManifest().then((list) => {
      if (live) setSamples(list);
    });
    return () => {
      live = false;
    };
  }, []);
  const current = source?.kind === 'sample' ? samples.find((s) => s.id === source.name) : undefined;
  return (
    <select
      data-testid="sample-picker"
      aria-label="Open a bundled sample"
      value={current?.id ?? ''}
      title={current ? `${current.title}\n\n${current.description}` : 'Open a bundled sample'}
      onChange={(e) => {
        const entry = samples.find((s) => s.id === e.target.value);
        if (entry) void openSample(entry);
      }}
    >
      <option value="" disabled>
        Samples…
      </option>
      {samples.map((s) => (
        <option key={s.id} value={s.id} title={s.description}>
          {s.title}
        </option>
      ))}
    </select>
  );
}
