import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { MARKS, type MarkId, TIER_WORDS } from './marks.ts';

const ORDER: MarkId[] = ['spilled', 'cleared', 'summarised', 'dropped', 'error', 'pairing'];

/** What the tier colors and mark glyphs of this run's rows mean: only those the rows show (an empty tier column
 *  under a legend of nine symbols reads as something missing). */
export function TierLegend() {
  const { kinds, pairing } = useStore(
    useShallow((s) => ({ kinds: s.run.result?.notes, pairing: (s.run.result?.pairing.length ?? 0) > 0 })),
  );
  // The run's tool results, summed up in the worker (the rows are asked for by window: use-notes.ts).
  const { tiers, marks } = useMemo(() => {
    const tiers = new Set<1 | 2 | 3>(kinds?.tiers);
    const marks = new Set<MarkId>();
    if (kinds?.spilled) marks.add('spilled');
    if (kinds?.cleared) marks.add('cleared');
    if (kinds?.summarised) marks.add('summarised');
    if (kinds?.dropped) marks.add('dropped');
    if (kinds?.error) marks.add('error');
    if (pairing) marks.add('pairing');
    return { tiers, marks };
  }, [kinds, pairing]);
  return (
    <div className="legend" data-testid="tier-legend">
      {([3, 2, 1] as const)
        .filter((t) => tiers.has(t))
        .map((t) => (
          <span key={t} className="legend-item" title={`Tier ${t}: ${TIER_WORDS[t]}`}>
            <span className={`tier-badge tier-${t}`}>{t}</span> {TIER_WORDS[t]}
          </span>
        ))}
      {ORDER.filter((id) => marks.has(id)).map((id) => (
        <span key={id} className="legend-item" title={MARKS[id].label}>
          <span className={`mark mark-${id}`}>{MARKS[id].glyph}</span> {id}
        </span>
      ))}
      {kinds && tiers.size === 0 && marks.size === 0 && (
        <span className="legend-item muted">no tool result was rewritten in this run</span>
      )}
    </div>
  );
}
