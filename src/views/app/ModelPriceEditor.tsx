import { useState } from 'react';
import type { UserPrice } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';

const FIELDS: { key: keyof UserPrice; label: string; required: boolean }[] = [
  { key: 'input', label: 'input', required: true },
  { key: 'output', label: 'output', required: true },
  { key: 'cacheRead', label: 'cache read', required: false },
  { key: 'cacheWrite5m', label: 'write 5m', required: false },
  { key: 'cacheWrite1h', label: 'write 1h', required: false },
];

/**
 * Prices for a model the catalog does not list, typed by the user in $ per million tokens. They go into the
 * config's `prices` (so the share link keeps them) and the run re-prices the session. Input and output are needed;
 * a cache price left empty is not guessed: writes are then billed as input (1-hour writes as 2× input) and cache
 * reads stay unpriced.
 */
export function ModelPriceEditor({ model, onDone }: { model: string; onDone: () => void }) {
  const prices = useStore((s) => s.config.config.prices);
  const setKey = useStore((s) => s.configActions.setKey);
  const current = prices[model];
  const [text, setText] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map((f) => [f.key, current?.[f.key] === undefined ? '' : String(current[f.key])])),
  );
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    const price: Record<string, number> = {};
    for (const f of FIELDS) {
      const v = text[f.key].trim();
      if (v === '') {
        if (f.required) return setError(`${f.label} price is needed`);
        continue;
      }
      price[f.key] = Number(v);
    }
    const err = setKey('prices', { ...prices, [model]: price });
    setError(err);
    if (!err) onDone();
  };
  const clear = () => {
    const { [model]: _drop, ...rest } = prices;
    setError(setKey('prices', rest));
    onDone();
  };
  return (
    <span className="price-editor" data-testid="model-price-editor" data-model={model}>
      <span className="muted">$/Mtok</span>
      {FIELDS.map((f) => (
        <label key={f.key}>
          {f.label}
          <input
            className="num"
            type="number"
            min={0}
            step="any"
            data-testid={`model-price-${f.key}`}
            value={text[f.key]}
            placeholder={f.required ? '' : 'none'}
            onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') save();
              if (e.key === 'Escape') onDone();
            }}
          />
        </label>
      ))}
      <button type="button" data-testid="model-price-save" onClick={save}>
        Apply
      </button>
      {current && (
        <button type="button" data-testid="model-price-clear" onClick={clear}>
          Remove
        </button>
      )}
      {error && <span className="error-text">{error}</span>}
    </span>
  );
}
