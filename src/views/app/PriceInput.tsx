import { useEffect, useState } from 'react';
import { useStore } from '../../state/store.ts';

/** The $/Mtok input price behind every cost figure: an assumption, editable in place. */
export function PriceInput() {
  const price = useStore((s) => s.view.pricePerMtok);
  const setPrice = useStore((s) => s.viewActions.setPrice);
  const [text, setText] = useState(String(price));
  useEffect(() => setText(String(price)), [price]);
  const commit = (v: string) => {
    const n = Number(v);
    if (Number.isFinite(n) && n >= 0 && n <= 1000) setPrice(n);
    else setText(String(price));
  };
  return (
    <label
      className="price"
      title="Assumed price of one million uncached input tokens; cache reads and writes are priced with the config's multipliers"
    >
      at $
      <input
        data-testid="price-input"
        className="num"
        type="number"
        min={0}
        max={1000}
        step={0.25}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value !== '') commit(e.target.value);
        }}
        onBlur={(e) => commit(e.target.value)}
      />
      /Mtok <span className="assumption">(assumed)</span>
    </label>
  );
}
