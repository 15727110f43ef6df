import type { CompactionRow } from '../../protocol/index.ts';
import { fmtUsd } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';

/** The calls after a compaction that fetched again what it folded: a repeat of an earlier call, or a read of a
 *  path its summary lost. */
export function RefetchesAfter({ row, onGo }: { row: CompactionRow; onGo: (messageIndex: number) => void }) {
  const r = row.refetchesAfter;
  return (
    <section className="cv-section" data-testid="compaction-refetches">
      <div className="cv-section-title">
        Re-fetches after it{' '}
        <span className="num muted">
          {r.count === 0
            ? '· none'
            : `· ${r.count} · ${fmtTokens(r.tokens)} tokens counted · ${r.usd === null ? 'price unknown' : `≈ ${fmtUsd(r.usd)}`}`}
        </span>
      </div>
      {r.count === 0 ? (
        <p className="muted cv-none">
          No call after this compaction repeated one from before it or read a path its summary lost.
        </p>
      ) : (
        <table className="cv-table">
          <thead>
            <tr>
              <th>message</th>
              <th>tool</th>
              <th>what</th>
              <th>why</th>
              <th className="num">tokens</th>
              <th className="num">≈ USD</th>
            </tr>
          </thead>
          <tbody>
            {r.items.map((it) => (
              <tr
                key={it.toolUseId}
                data-testid="refetch-after"
                data-why={it.why}
                data-lost={String(it.lostItem !== null)}
              >
                <td>
                  <button type="button" className="link num" onClick={() => onGo(it.messageIndex)}>
                    m{it.messageIndex}
                  </button>
                </td>
                <td className="mono">{it.tool}</td>
                <td className="mono cv-args" title={it.args}>
                  {it.lostItem ?? it.args}
                </td>
                <td>
                  {it.why === 'repeat' ? 'repeats a call from before' : 'reads a path the summary lost'}
                  {it.why === 'repeat' && it.lostItem !== null && <span className="cv-lost-count"> · path lost</span>}
                </td>
                <td className="num">{fmtTokens(it.tokens)}</td>
                <td className="num">{it.usd === null ? '—' : fmtUsd(it.usd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
