import type { ToolResultRow } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';
import { MARKS, resultMarks, tierText } from '../transcript/marks.ts';

function shortId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** What happened to one tool result: tier (first touch, distance, floor), spill/clear/summary/drop, size. */
export function ResultFate({ r }: { r: ToolResultRow }) {
  const marks = resultMarks(r);
  return (
    <li className="fate" data-testid="result-fate" data-tool-use-id={r.toolUseId} data-tier={r.tier ?? ''}>
      <div className="fate-head">
        {r.tier !== null ? (
          <span className={`tier-badge tier-${r.tier}`}>{r.tier}</span>
        ) : (
          <span className="tier-badge tier-none">–</span>
        )}
        <span className="fate-tool">{r.tool}</span>
        <span className="muted mono" title={r.toolUseId}>
          {shortId(r.toolUseId)}
        </span>
        {r.dropped ? (
          <span className="num fate-size" title="characters as recorded; the hard cap then dropped the whole message">
            {fmtTokens(r.chars)} chars → dropped{r.droppedAt !== null ? ` at request ${r.droppedAt}` : ''}
          </span>
        ) : (
          <span className="num fate-size" title="characters: original → in the last request that carries it">
            {fmtTokens(r.chars)} → {fmtTokens(r.finalChars)} chars
          </span>
        )}
      </div>
      <div className="fate-text">
        {tierText(r)}
        {marks.map((m) => (
          <span key={m} className={`fate-mark mark-${m}`}>
            {' '}
            · {MARKS[m].glyph} {MARKS[m].label}
          </span>
        ))}
        {r.summarized && <span> · tier-2 summary</span>}
        {r.isError && <span className="sev-error"> · {MARKS.error.label}</span>}
        <span className="muted"> · ≈{fmtTokens(r.tokens)} tokens</span>
      </div>
    </li>
  );
}
