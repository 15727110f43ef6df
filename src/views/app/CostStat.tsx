import { useState } from 'react';
import { type CostReport, type CostTotals, fmtUsd, type ModelCost } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';
import { ModelPriceEditor } from './ModelPriceEditor.tsx';
import { Stat } from './Stat.tsx';

/** Models shown as rows before the rest fold into "+N more". */
const MAX_ROWS = 4;

const NO_USAGE = 'The log records no usage, so there is no recorded cost: only the simulated estimate.';

function partsTitle(m: ModelCost, basis: string): string {
  const t = m.tokens;
  const u = m.usd;
  const part = (label: string, tokens: number, usd: number | undefined) =>
    `${label}: ${fmtTokens(tokens)} tokens${usd === undefined ? '' : ` = ${fmtUsd(usd)}`}`;
  return [
    `${m.model} (${basis}; ${m.pricing === 'user' ? 'your price' : m.catalogId ? `catalog entry ${m.catalogId}` : 'price unknown'})`,
    `${m.requests} request(s)${m.apart > 0 ? `, ${m.apart} billed apart (rewound branches, usage-only calls)` : ''}`,
    part('input', t.input, u?.input),
    part('output', t.output, u?.output),
    part('cache read', t.cacheRead, u?.cacheRead),
    part('cache write 5m', t.cacheWrite5m, u?.cacheWrite5m),
    part('cache write 1h', t.cacheWrite1h, u?.cacheWrite1h),
    m.longContext > 0 ? `${m.longContext} at the long-context price` : '',
    m.unpriced > 0 ? `${m.unpriced} not priced: ${m.reason}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** One model: its recorded dollars → simulated, or "price unknown" with a way to type a price. */
function ModelRow({ m, sim, recorded }: { m: ModelCost; sim: ModelCost | undefined; recorded: boolean }) {
  const [editing, setEditing] = useState(false);
  const basis = recorded ? 'observed usage at list prices' : 'simulated (estimate)';
  return (
    <span className="cost-model" data-testid="cost-model-row" data-model={m.model} data-pricing={m.pricing}>
      <span className="cost-model-name" title={partsTitle(m, basis)}>
        {m.model}
      </span>{' '}
      {m.usd === null ? (
        <>
          <span className="cost-unknown" data-testid="cost-price-unknown" title={m.reason ?? undefined}>
            price unknown
          </span>
          {!editing && (
            <button type="button" className="link" data-testid="cost-set-price" onClick={() => setEditing(true)}>
              set price
            </button>
          )}
          {editing && <ModelPriceEditor model={m.model} onDone={() => setEditing(false)} />}
        </>
      ) : (
        <>
          <span className="num" data-testid="cost-model-usd">
            {recorded ? '' : '≈'}
            {fmtUsd(m.usd.usd)}
          </span>
          {recorded && sim?.usd && <span className="num muted"> → ≈{fmtUsd(sim.usd.usd)}</span>}
          {m.pricing === 'user' && (
            <button
              type="button"
              className="link cost-user-price"
              title="Your price for this model (kept in the share link): change it"
              onClick={() => setEditing(true)}
            >
              your price
            </button>
          )}
          {editing && <ModelPriceEditor model={m.model} onDone={() => setEditing(false)} />}
        </>
      )}
    </span>
  );
}

function apartText(r: CostTotals): string | null {
  const parts: string[] = [];
  if (r.abandonedUsd > 0) parts.push(`${fmtUsd(r.abandonedUsd)} rewound`);
  if (r.noRequestUsd > 0) parts.push(`${fmtUsd(r.noRequestUsd)} usage-only calls`);
  return parts.length > 0 ? `incl. ${parts.join(', ')}` : null;
}

/** The session's dollars (recorded → simulated), what was billed apart, and one row per model. */
export function CostStat({ cost }: { cost: CostReport }) {
  const r = cost.recorded;
  const s = cost.simulated;
  const rows = r ?? s;
  const sims = new Map(s.byModel.map((m) => [m.model, m]));
  const shown = rows.byModel.slice(0, MAX_ROWS);
  const rest = rows.byModel.slice(MAX_ROWS);
  const apart = r && apartText(r);
  const catalog = `${cost.catalog.name} ${cost.catalog.version} (${cost.catalog.published})`;
  return (
    <Stat
      label="cost"
      title={`US dollars at the list prices of ${catalog}: recorded = every billed response of the log once (observed usage) → simulated = the replay under the provider's cache rules (estimate)`}
    >
      <span className="cost-figures">
        <span data-testid="stat-cost-recorded" title={r ? 'observed usage at list prices' : NO_USAGE}>
          {r ? fmtUsd(r.usd) : '—'}
        </span>
        {apart && (
          <span
            className="muted"
            data-testid="stat-cost-apart"
            title="Billed responses that are none of the replayed requests: on branches the user rewound, or calls the log records only by their usage. They were paid for; the replay cannot change them."
          >
            {' '}
            ({apart})
          </span>
        )}
        {' → '}
        <span data-testid="stat-cost-simulated" title="simulated for the replayed (rewritten) prompts: an estimate">
          ≈{fmtUsd(s.usd)}
        </span>
      </span>
      <span className="cost-models">
        {shown.map((m) => (
          <ModelRow key={m.model} m={m} sim={sims.get(m.model)} recorded={r !== null} />
        ))}
        {rest.length > 0 && (
          <span
            className="muted"
            title={rest.map((m) => `${m.model} ${m.usd ? fmtUsd(m.usd.usd) : 'price unknown'}`).join('\n')}
          >
            +{rest.length} more
          </span>
        )}
        <span
          className="muted cost-catalog"
          data-testid="cost-catalog"
          title={`Prices: ${catalog}, bundled (nothing fetched)`}
        >
          {cost.catalog.name.replace(/^@pydantic\//, '')} {cost.catalog.version}
        </span>
      </span>
    </Stat>
  );
}
