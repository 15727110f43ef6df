import { lazy, Suspense, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ReplayMode } from '../../protocol/index.ts';
import { configConflicts, diffKeys, PRESETS, type PresetId } from '../../protocol/index.ts';
import { baselineConfig } from '../../state/log-settings.ts';
import { useStore } from '../../state/store.ts';
import type { SettingsSource } from '../../state/types.ts';
import { DOCK_DEFAULT, useLayout } from '../app/layout-state.ts';
import { AliasTable } from './AliasTable.tsx';
import { ConfigControls } from './ConfigControls.tsx';
import { LimitsSettings } from './LimitsSettings.tsx';
import { SummarizerSettings } from './SummarizerSettings.tsx';
import { TradeOff } from './TradeOff.tsx';
import './config.css';

// Monaco loads only when the JSON tab is first opened.
const ConfigJsonEditor = lazy(() => import('./ConfigJsonEditor.tsx').then((m) => ({ default: m.ConfigJsonEditor })));

const MODES: { id: ReplayMode; label: string; help: string }[] = [
  {
    id: 'recorded',
    label: 'kept (as recorded)',
    help: 'Replay with the agent’s own compactions, as the log recorded them: after a compaction the input restarts from its summary (mode "recorded").',
  },
  {
    id: 'raw',
    label: 'ignored (what-if)',
    help: 'What if the agent had not compacted: drop its compactions and let Tierscope’s pipeline manage the whole history (mode "raw").',
  },
];

const FROM: Record<SettingsSource['kind'], string> = {
  link: 'Opened with the share link’s settings',
  'share-file': 'Opened with the share file’s settings',
  sample: 'Opened with the sample’s settings',
};

/** Preset, mode and every config key, with the live trade-off beside them; every change re-runs the worker. */
export function ConfigPanel() {
  const { preset, config, mode, log, from } = useStore(
    useShallow((s) => ({
      preset: s.config.preset,
      config: s.config.config,
      mode: s.config.mode,
      log: s.config.log,
      from: s.config.from,
    })),
  );
  const actions = useStore((s) => s.configActions);
  // The tab is view state: in the URL and a share link (src/share/view.ts).
  const tab = useStore((s) => s.view.configTab);
  const setTab = useStore((s) => s.viewActions.setConfigTab);
  const dock = useLayout((s) => s.dock);
  const setDock = useLayout((s) => s.setDock);
  const tall = dock > window.innerHeight * 0.4;
  // The preset with the log's defaults (its context window): a log default is not a difference.
  const presetCfg = useMemo(() => baselineConfig(preset, log), [preset, log]);
  const changed = useMemo(() => diffKeys(config, presetCfg), [config, presetCfg]);
  const conflicts = useMemo(() => configConflicts(config), [config]);
  const desc = PRESETS.find((p) => p.id === preset)?.description ?? '';
  const modeHelp = MODES.find((m) => m.id === mode)?.help ?? '';

  return (
    <section data-testid="config-panel" className="config-panel">
      <div className="cfg-head">
        <span className="panel-title">Config</span>
        <label className="cfg-field" title={desc}>
          <span className="muted">preset</span>
          <select
            data-testid="preset-select"
            value={preset}
            onChange={(e) => actions.setPreset(e.target.value as PresetId)}
          >
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id} title={p.description}>
                {p.title}
              </option>
            ))}
          </select>
        </label>
        <label className="cfg-field" title={modeHelp}>
          <span className="muted">agent’s compactions</span>
          <select
            data-testid="mode-select"
            value={mode}
            onChange={(e) => actions.setMode(e.target.value as ReplayMode)}
          >
            {MODES.map((m) => (
              <option key={m.id} value={m.id} title={m.help}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="cfg-expand"
          data-testid="config-expand"
          title={tall ? 'Give the transcript its room back' : 'Make room for the config (the bottom dock grows)'}
          aria-pressed={tall}
          onClick={() => (tall ? setDock(DOCK_DEFAULT) : setDock(window.innerHeight * 0.48))}
        >
          {tall ? '⤓ smaller' : '⤒ larger'}
        </button>
      </div>
      <div className="cfg-desc-row">
        <span className="cfg-desc muted" data-testid="preset-description" title={desc}>
          {desc}
        </span>
        {from && (
          <span
            className="cfg-origin"
            data-testid="config-origin"
            data-kind={from.kind}
            title={`${from.name}: values that differ from the log's defaults are marked as overrides`}
          >
            {FROM[from.kind]}
          </span>
        )}
        {log && (
          <span
            className={changed.length > 0 ? 'cfg-changed-note' : 'cfg-changed-note cfg-changed-none'}
            data-testid="config-changed"
            data-count={changed.length}
          >
            <span
              title={
                changed.length > 0
                  ? `${changed.join(', ')} (compared with the preset and the log's defaults)`
                  : "Every key is the preset's, with the log's defaults (its context window)"
              }
            >
              {changed.length} {changed.length === 1 ? 'key differs' : 'keys differ'} from the preset
            </span>
            {changed.length > 0 && (
              <button type="button" data-testid="reset-all" onClick={() => actions.setPreset(preset)}>
                Reset all
              </button>
            )}
          </span>
        )}
      </div>
      {conflicts.map((c) => (
        <div key={c.id} className="cfg-warning cfg-conflict-line" data-testid="config-conflict-active" data-id={c.id}>
          ⚠ {c.text}
        </div>
      ))}
      <div className="cfg-bar">
        <div className="cfg-tabs" role="tablist">
          {(
            [
              ['controls', 'Thresholds'],
              ['json', 'JSON'],
              ['aliases', 'Tool aliases'],
              ['summarizer', 'Summarizer'],
              ['limits', 'Limits'],
            ] as const
          ).map(([id, label]) => (
            <button
              type="button"
              role="tab"
              key={id}
              data-testid={`config-tab-${id}`}
              aria-selected={tab === id}
              onClick={() => {
                setTab(id);
                // The editor needs a few more lines than the dock's default height.
                if (id === 'json' && dock < window.innerHeight * 0.4) setDock(window.innerHeight * 0.45);
              }}
            >
              {label}
            </button>
          ))}
        </div>
        <TradeOff />
      </div>
      <div className="cfg-body" role="tabpanel">
        {tab === 'controls' && <ConfigControls config={config} presetCfg={presetCfg} />}
        {tab === 'json' && (
          <Suspense fallback={<div className="muted cfg-loading">Loading editor…</div>}>
            <ConfigJsonEditor />
          </Suspense>
        )}
        {tab === 'aliases' && <AliasTable />}
        {tab === 'summarizer' && <SummarizerSettings />}
        {tab === 'limits' && <LimitsSettings />}
      </div>
    </section>
  );
}
