import { PRESETS, type PresetId } from '../../pipeline/presets.ts';
import { useStore } from '../../state/store.ts';

export function ConfigPanel() {
  const preset = useStore((s) => s.config.preset);
  const setPreset = useStore((s) => s.configActions.setPreset);
  return (
    <section data-testid="config-panel" className="config-panel">
      <div className="panel-title">Config</div>
      <select data-testid="preset-select" value={preset} onChange={(e) => setPreset(e.target.value as PresetId)}>
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.title}
          </option>
        ))}
      </select>
    </section>
  );
}
