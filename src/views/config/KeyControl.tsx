import { type KeyboardEvent, useEffect, useState } from 'react';
import {
  type ConfigConflict,
  checkValue,
  configConflicts,
  DEFAULT_CONFIG,
  getKey,
  type KeySpec,
  mergeConfig,
  type PipelineConfig,
} from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';

type Json = ReturnType<typeof getKey>;

type Props = {
  spec: KeySpec;
  /** The config in effect (a typed value is checked against the rest of it before it runs). */
  config: PipelineConfig;
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

/** A number typed into a control: the value, or why it cannot be one (nothing runs until it can). */
function parseNumber(spec: KeySpec, text: string): { value: number } | { error: string } {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '') return { error: `${spec.key}: type a number` };
  const n = Number(t);
  try {
    return { value: checkValue(spec.key, n) as number };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The contradictions a typed value would bring that the config in effect does not have. */
function newConflicts(config: PipelineConfig, key: string, value: number): ConfigConflict[] {
  const partial: Record<string, unknown> = {};
  const parts = key.split('.');
  let at = partial;
  for (const p of parts.slice(0, -1)) at = at[p] = {} as Record<string, unknown>;
  at[parts[parts.length - 1]] = value;
  const before = new Set(configConflicts(config).map((c) => c.id));
  return configConflicts(mergeConfig(config, partial)).filter((c) => !before.has(c.id));
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
export function KeyControl({ spec, config, value, presetValue, changed, note }: Props) {
  const setKey = useStore((s) => s.configActions.setKey);
  const [text, setText] = useState(fmt(value));
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  /** A number being typed (committed with Enter or on leaving the field), and what it would contradict. */
  const [draft, setDraft] = useState<string | null>(null);
  const [warn, setWarn] = useState<ConfigConflict[]>([]);
  useEffect(() => {
    if (!editing) {
      setText(fmt(value));
      setError(null);
    }
  }, [value, editing]);

  const commit = (v: unknown) => setError(setKey(spec.key, v));
  const ratio = spec.kind === 'ratio' || spec.kind === 'ratio-or-null';
  const step = spec.step ?? (ratio ? 0.01 : 1);
  const bigStep = spec.bigStep ?? step * 10;
  const typeNumber = (t: string) => {
    setDraft(t);
    const p = parseNumber(spec, t);
    setError('error' in p ? p.error : null);
    setWarn('error' in p ? [] : newConflicts(config, spec.key, p.value));
  };
  const commitDraft = () => {
    if (draft === null) return;
    const p = parseNumber(spec, draft);
    if ('error' in p) return setError(p.error);
    setDraft(null);
    setWarn([]);
    commit(p.value);
  };
  /** ↑ ↓ move by the key's step (Shift: the big step) from what is shown, and run at once. */
  const stepKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') return commitDraft();
    if (e.key === 'Escape' && draft !== null) {
      e.stopPropagation();
      setDraft(null);
      setWarn([]);
      return setError(null);
    }
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    const typed = draft === null ? null : parseNumber(spec, draft);
    const base = typed && 'value' in typed ? typed.value : typeof value === 'number' ? value : 0;
    const d = (e.key === 'ArrowUp' ? 1 : -1) * (e.shiftKey ? bigStep : step);
    const lo = spec.min ?? Number.NEGATIVE_INFINITY;
    const hi = spec.max ?? Number.POSITIVE_INFINITY;
    const next = Math.min(hi, Math.max(lo, ratio ? Math.round((base + d) * 100) / 100 : base + d));
    setDraft(null);
    setWarn([]);
    commit(next);
  };
  const numberProps = {
    onFocus: () => setEditing(true),
    onBlur: () => {
      setEditing(false);
      commitDraft();
    },
    onKeyDown: stepKey,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => typeNumber(e.target.value),
    'aria-invalid': error !== null,
  };
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
            type="text"
            inputMode={ratio ? 'decimal' : 'numeric'}
            id={id}
            data-testid={tid}
            className="cfg-num num"
            role="spinbutton"
            aria-valuenow={n}
            aria-valuemin={spec.min}
            aria-valuemax={spec.max}
            title={`↑ ↓ ${step.toLocaleString('en-US')}, with Shift ${bigStep.toLocaleString('en-US')}; Enter runs`}
            {...numberProps}
            value={draft ?? String(n)}
          />
        </>
      );
      break;
    }
    case 'int-or-null':
    case 'ratio-or-null': {
      const on = value !== null;
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
            type="text"
            inputMode={ratio ? 'decimal' : 'numeric'}
            id={id}
            data-testid={tid}
            className="cfg-num cfg-num-wide num"
            role="spinbutton"
            aria-valuenow={typeof value === 'number' ? value : undefined}
            aria-valuemin={spec.min}
            aria-valuemax={spec.max}
            disabled={!on}
            placeholder={spec.nullLabel ?? 'off'}
            title={`↑ ↓ ${step.toLocaleString('en-US')}, with Shift ${bigStep.toLocaleString('en-US')}; Enter runs`}
            {...numberProps}
            value={on ? (draft ?? String(value)) : ''}
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
      {!error &&
        warn.map((w) => (
          <span key={w.id} className="cfg-warning" role="alert" data-testid="config-conflict" data-id={w.id}>
            ⚠ {w.text} <span className="muted">(Enter runs it anyway)</span>
          </span>
        ))}
    </div>
  );
}
