import { MARKS, type MarkId, TIER_WORDS } from './marks.ts';

const SHOWN: MarkId[] = ['spilled', 'cleared', 'summarised', 'dropped', 'error', 'pairing'];

/** What the tier colors and mark glyphs mean (always on screen above the rows). */
export function TierLegend() {
  return (
    <div className="legend" data-testid="tier-legend">
      {([3, 2, 1] as const).map((t) => (
        <span key={t} className="legend-item" title={`Tier ${t}: ${TIER_WORDS[t]}`}>
          <span className={`tier-badge tier-${t}`}>{t}</span> {TIER_WORDS[t]}
        </span>
      ))}
      {SHOWN.map((id) => (
        <span key={id} className="legend-item" title={MARKS[id].label}>
          <span className={`mark mark-${id}`}>{MARKS[id].glyph}</span> {id}
        </span>
      ))}
    </div>
  );
}
