import { useEffect, useState } from 'react';
import { DEFAULT_CONFIG, getKey, type KeySpec } from '../../../worker/api.ts';
import { useStore } from '../../state/store.ts';

type Json = ReturnType<typeof getKey>;

type Props = {
  spec: KeySpec;
  value: Json;
  presetValue: Json;
  changed: boolean;
  /** Where the value came from (the context window's "from the log" label), under the help line. */
  note?: React.ReactNode;
};

/** A slider's practical range: the spec's bounds can be huge (10M), so the slider spans about 4× the default. */
function sliderMax(spec: KeySpec, value: number): number {
  const max = spec.max ?? 100;
  const def = Number(getKey(DEFAULT_CONFIG, spec.key));
  const soft = spec.kind === 'ratio' ? Math.max(1, def * 4) : Math.max(spec.key.includes('Window') ? 32 : 16, def * 4);
  return Math.min(max, Math.max(soft, value));
}

function fmt(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Text of a list control → list value. */
function parseList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

/**
 * One control per config key (`threshold-<key>`): slider + number for ints and ratios, checkbox for bools,
 * select for enums, comma-separated text for lists, JSON for maps. Every valid edit is committed at once
 * (the store debounces the re-run); an invalid one shows the validator's message beside the control.
 */
export function KeyControl({ spec, value, presetValue, changed, note }: Props) {
  const setKey = useStore((s) => s.configActions.setKey);
  const [text, setText] = useState(fmt(value));
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) {
      setText(fmt(value));
      setError(null);
    }
  }, [value, editing]);

  const commit = (v: unknown) => setError(setKey(spec.key, v));
  const id = `cfg-${spec.key}`;
  const tid = `threshold-${spec.key}`;
  const textProps = {
    value: text,
    onFocus: () => setEditing(true),
    onBlur: () => setEditing(false),
    'aria-invalid': error !== null,
  };

  let control: React.ReactNode;
  switch (spec.kind) {
    case 'int':
    case 'ratio': {
      const n = typeof value === 'number' ? value : 0;
      const step = spec.kind === 'ratio' ? 0.01 : 1;
      control = (
        <>
          <input
            type="range"
            data-testid={`${tid}-slider`}
            aria-labelledby={`${id}-label`}
            min={spec.min ?? 0}
            max={sliderMax(spec, n)}
            step={step}
            value={n}
            onChange={(e) => commit(Number(e.target.value))}
          />
          <input
            type="number"
            id={id}
            data-testid={tid}
            className="cfg-num num"
            min={spec.min}
            max={spec.max}
            step={step}
            {...textProps}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value.trim() !== '') commit(Number(e.target.value));
            }}
          />
        </>
      );
      break;
    }
    case 'int-or-null':
    case 'ratio-or-null': {
      const on = value !== null;
      const step = spec.kind === 'ratio-or-null' ? 0.01 : 1;
      // Turning a per-model key on starts from a round value: its preset value is null.
      const start = typeof presetValue === 'number' ? presetValue : spec.kind === 'ratio-or-null' ? 1 : (spec.min ?? 0);
      control = (
        <>
          <input
            type="checkbox"
            aria-label={`use ${spec.key}`}
            checked={on}
            onChange={(e) => commit(e.target.checked ? start : null)}
          />
          <input
            type="number"
            id={id}
            data-testid={tid}
            className="cfg-num cfg-num-wide num"
            min={spec.min}
            max={spec.max}
            step={step}
            disabled={!on}
            placeholder={spec.nullLabel ?? 'off'}
            {...textProps}
            value={on ? text : ''}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value.trim() !== '') commit(Number(e.target.value));
            }}
          />
        </>
      );
      break;
    }
    case 'bool':
      control = (
        <input
          type="checkbox"
          id={id}
          data-testid={tid}
          checked={value === true}
          onChange={(e) => commit(e.target.checked)}
        />
      );
      break;
    case 'enum':
      control = (
        <select id={id} data-testid={tid} value={String(value)} onChange={(e) => commit(e.target.value)}>
          {spec.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'list':
      control = (
        <input
          type="text"
          id={id}
          data-testid={tid}
          className="cfg-text mono"
          spellCheck={false}
          placeholder="none"
          {...textProps}
          onChange={(e) => {
            setText(e.target.value);
            commit(parseList(e.target.value));
          }}
        />
      );
      break;
    case 'map':
    case 'prices':
      control = (
        <input
          type="text"
          id={id}
          data-testid={tid}
          className="cfg-text mono"
          spellCheck={false}
          placeholder="{}"
          {...textProps}
          onChange={(e) => {
            setText(e.target.value);
            try {
              commit(JSON.parse(e.target.value || '{}'));
            } catch {
              setError(
                spec.kind === 'prices'
                  ? `${spec.key}: not valid JSON (e.g. {"my-model": {"input": 3, "output": 15}})`
                  : `${spec.key}: not valid JSON (e.g. {"bash": 30000})`,
              );
            }
          }}
        />
      );
      break;
  }

  return (
    <div className={changed ? 'cfg-row cfg-changed' : 'cfg-row'} title={spec.help}>
      <label id={`${id}-label`} htmlFor={id} className="cfg-key mono">
        {spec.key}
      </label>
      <span className="cfg-control">{control}</span>
      <span className="cfg-reset">
        {changed && (
          <button
            type="button"
            data-testid={`reset-${spec.key}`}
            title={`Back to the preset's value with the log's defaults (${fmt(presetValue)})`}
            aria-label={`reset ${spec.key} to ${fmt(presetValue)}`}
            onClick={() => {
              setEditing(false);
              commit(presetValue);
            }}
          >
            ↺
          </button>
        )}
      </span>
      <span className="cfg-help">{spec.help}</span>
      {note && <span className="cfg-note">{note}</span>}
      {error && (
        <span className="cfg-error error-text" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
