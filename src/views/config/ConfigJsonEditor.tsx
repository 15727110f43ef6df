import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  ConfigError,
  configSchema,
  mergeConfig,
  type PipelineConfig,
  PRESET_IDS,
  type PresetId,
} from '../../protocol/index.ts';
import { baselineConfig } from '../../state/log-settings.ts';
import { useStore } from '../../state/store.ts';
import { useColorScheme } from '../app/use-color-scheme.ts';
import { jsonDefaults, monaco } from '../common/monaco.ts';

const MODEL_URI = monaco.Uri.parse('inmemory://tierscope/config.json');
const OWNER = 'tierscope-config';
const APPLY_MS = 250;

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  enableSchemaRequest: false,
  schemaValidation: 'error',
  schemas: [
    { uri: 'inmemory://tierscope/config.schema.json', fileMatch: [MODEL_URI.toString()], schema: configSchema() },
  ],
});

function textOf(preset: PresetId, config: PipelineConfig): string {
  return `${JSON.stringify({ preset, ...config }, null, 2)}\n`;
}

/** Where a dotted key's last segment appears in the text (for an inline marker), else line 1. */
function rangeOfKey(model: monaco.editor.ITextModel, message: string): monaco.IRange {
  const key = /^([\w.]+):/.exec(message)?.[1]?.split('.').at(-1);
  const m = key ? model.findMatches(`"${key}"`, false, false, true, null, false)[0] : undefined;
  return m?.range ?? { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 2 };
}

/**
 * The whole config as JSON in Monaco, validated against configSchema() by Monaco's JSON service and by the
 * config validator; an edit with no errors is applied (setConfig, the store re-runs), errors stay inline.
 */
export function ConfigJsonEditor() {
  const { preset, config } = useStore(useShallow((s) => ({ preset: s.config.preset, config: s.config.config })));
  const scheme = useColorScheme();
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [status, setStatus] = useState<{ kind: 'ok' | 'error' | 'pending'; text: string }>({
    kind: 'ok',
    text: 'In sync with the controls.',
  });

  useEffect(() => {
    if (!host.current) return;
    const st = useStore.getState().config;
    const model = monaco.editor.getModel(MODEL_URI) ?? monaco.editor.createModel('', 'json', MODEL_URI);
    model.setValue(textOf(st.preset, st.config));
    const editor = monaco.editor.create(host.current, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 12,
      lineHeight: 18,
      lineNumbersMinChars: 3,
      tabSize: 2,
      fixedOverflowWidgets: true,
      renderLineHighlight: 'none',
      stickyScroll: { enabled: false },
    });
    ed.current = editor;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const apply = () => {
      const schemaErrors = monaco.editor
        .getModelMarkers({ resource: MODEL_URI })
        .filter((m) => m.owner !== OWNER && m.severity === monaco.MarkerSeverity.Error);
      let parsed: unknown;
      try {
        parsed = JSON.parse(model.getValue());
      } catch (e) {
        monaco.editor.setModelMarkers(model, OWNER, []);
        setStatus({ kind: 'error', text: `Not applied: ${e instanceof Error ? e.message : 'invalid JSON'}` });
        return;
      }
      if (schemaErrors.length > 0) {
        monaco.editor.setModelMarkers(model, OWNER, []);
        const first = schemaErrors[0];
        setStatus({ kind: 'error', text: `Not applied: line ${first.startLineNumber}: ${first.message}` });
        return;
      }
      const obj = (parsed ?? {}) as Record<string, unknown>;
      const { preset: p, ...rest } = obj;
      const base = typeof p === 'string' && (PRESET_IDS as readonly string[]).includes(p) ? (p as PresetId) : null;
      try {
        if (p !== undefined && base === null) throw new ConfigError(`preset: must be one of ${PRESET_IDS.join(', ')}`);
        const cur = useStore.getState().config;
        const presetId = base ?? cur.preset;
        const next = mergeConfig(baselineConfig(presetId, cur.log), rest);
        monaco.editor.setModelMarkers(model, OWNER, []);
        const actions = useStore.getState().configActions;
        if (presetId !== cur.preset) actions.setPreset(presetId);
        if (JSON.stringify(next) !== JSON.stringify(useStore.getState().config.config)) actions.setConfig(next);
        setStatus({ kind: 'ok', text: 'Applied.' });
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        monaco.editor.setModelMarkers(model, OWNER, [
          { ...rangeOfKey(model, msg), message: msg, severity: monaco.MarkerSeverity.Error },
        ]);
        setStatus({ kind: 'error', text: `Not applied: ${msg}` });
      }
    };
    const edits = model.onDidChangeContent(() => {
      if (!editor.hasTextFocus()) return;
      setStatus({ kind: 'pending', text: 'Checking…' });
      if (timer) clearTimeout(timer);
      // Wait for Monaco's schema diagnostics of this version before deciding.
      timer = setTimeout(apply, APPLY_MS);
    });
    const markers = monaco.editor.onDidChangeMarkers((uris) => {
      if (!editor.hasTextFocus() || !uris.some((u) => u.toString() === MODEL_URI.toString())) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(apply, 30);
    });
    return () => {
      if (timer) clearTimeout(timer);
      edits.dispose();
      markers.dispose();
      editor.dispose();
      model.dispose();
      ed.current = null;
    };
  }, []);

  // Follow changes made elsewhere (sliders, presets) unless the text already says the same.
  useEffect(() => {
    const model = ed.current?.getModel();
    if (!model) return;
    try {
      const cur = JSON.parse(model.getValue()) as Record<string, unknown>;
      const { preset: p, ...rest } = cur;
      const base = baselineConfig(preset, useStore.getState().config.log);
      if (p === preset && JSON.stringify(mergeConfig(base, rest)) === JSON.stringify(config)) return;
    } catch {
      if (ed.current?.hasTextFocus()) return;
    }
    model.setValue(textOf(preset, config));
    monaco.editor.setModelMarkers(model, OWNER, []);
    setStatus({ kind: 'ok', text: 'In sync with the controls.' });
  }, [preset, config]);

  useEffect(() => {
    monaco.editor.setTheme(scheme === 'dark' ? 'vs-dark' : 'vs');
  }, [scheme]);

  return (
    <div className="cfg-json">
      <div ref={host} className="cfg-json-host" data-testid="config-editor" />
      <div className={`cfg-json-status cfg-json-${status.kind}`} data-testid="config-json-status" role="status">
        {status.text}
      </div>
    </div>
  );
}
