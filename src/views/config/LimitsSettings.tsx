// The Limits tab of the config panel: file, line and thread limits for this tab's loads (SPEC §1.3), why the file
// limit is what it is, Defaults, and loading the current input again. Each input shows the applied limit, also
// when it is set elsewhere (Defaults, the engine-stopped banner).
import { useEffect, useState } from 'react';
import { formatBytes } from '../../protocol/index.ts';
import { lastInput } from '../../state/last-input.ts';
import { DEFAULT_LOAD_LIMITS, type LoadLimitValues, useLoadLimits } from '../../state/load-limits.ts';
import './summarizer.css';

const MB = 1024 * 1024;

type Field = { key: keyof LoadLimitValues; label: string; unit: 'MB' | 'threads'; help: string };

const FIELDS: Field[] = [
  { key: 'maxFileBytes', label: 'file size', unit: 'MB', help: 'A bigger file is refused before it is read.' },
  { key: 'maxLineBytes', label: 'line size', unit: 'MB', help: 'A longer line is skipped with a parse issue.' },
  { key: 'maxThreads', label: 'threads', unit: 'threads', help: 'Threads past this many are dropped, with an issue.' },
];

/** Load limits for this tab (SPEC §1.3); they apply to the next load. */
export function LimitsSettings() {
  const limits = useLoadLimits();
  return (
    <div className="cfg-limits" data-testid="limits-settings">
      <p className="muted">
        Limits protect the page and the engine from inputs too big to hold; they apply to the next load. Defaults:{' '}
        {formatBytes(DEFAULT_LOAD_LIMITS.maxFileBytes)} per file, {formatBytes(DEFAULT_LOAD_LIMITS.maxLineBytes)} per
        line, {DEFAULT_LOAD_LIMITS.maxThreads.toLocaleString('en-US')} threads. The same limits apply to a picked,
        dropped, pasted or <code>?src=</code> file, and to a gzip file once decompressed.
      </p>
      <p className="muted" data-testid="limits-measured">
        Why {formatBytes(DEFAULT_LOAD_LIMITS.maxFileBytes)}: measured in headless Chromium, a generated 364 MB Claude
        Code log shows its structure in 17 s and its exact counts and first run in about a minute, at 2.2 GB peak memory
        for the whole browser (95 MB: 1.3 GB). Bigger files risk the engine running out of memory, which takes the tab
        with it; raise the limit only on a machine with memory to spare, or use the CLI (
        <code>tierscope analyze &lt;file&gt;</code>, up to 2 GB).
      </p>
      {FIELDS.map((f) => (
        <LimitField key={f.key} field={f} value={limits[f.key]} />
      ))}
      <div>
        <button
          type="button"
          data-testid="limits-reset"
          onClick={() => {
            useLoadLimits.setState({ ...DEFAULT_LOAD_LIMITS });
          }}
        >
          Defaults
        </button>{' '}
        <button type="button" data-testid="limits-reload" onClick={() => void lastInput()?.()}>
          Load the current input again
        </button>
      </div>
    </div>
  );
}

/** The stored limit a typed text stands for (null: not a limit, the stored one stays). */
function parsed(f: Field, text: string): number | null {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) return null;
  return f.unit === 'MB' ? Math.round(n * MB) : Math.floor(n);
}

const shown = (f: Field, value: number) => String(f.unit === 'MB' ? Number((value / MB).toFixed(3)) : value);

/**
 * One limit's input. It shows what the user types, and the applied value whenever the limit is set elsewhere
 * (Defaults, the engine-stopped banner's smaller limit): an uncontrolled input kept showing the old value.
 */
function LimitField({ field: f, value }: { field: Field; value: number }) {
  const [text, setText] = useState(() => shown(f, value));
  useEffect(() => {
    setText((t) => (parsed(f, t) === value ? t : shown(f, value)));
  }, [f, value]);
  return (
    <label title={f.help}>
      <span className="muted">{f.label}</span>
      <input
        type="number"
        data-testid={`limit-${f.key}`}
        min={f.unit === 'MB' ? 0.001 : 1}
        step={f.unit === 'MB' ? 'any' : 1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = parsed(f, e.target.value);
          if (n !== null) useLoadLimits.setState({ [f.key]: n });
        }}
      />
      <span className="muted">
        {f.unit} · {f.help}
      </span>
    </label>
  );
}
