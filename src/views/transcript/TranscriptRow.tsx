import { memo } from 'react';
import type { Row } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { heat } from '../common/heat.ts';
import { visibleText } from '../common/visible-text.ts';
import { RowMarks } from './RowMarks.tsx';
import type { RowNotes } from './row-notes.ts';
import { TierBadge } from './TierBadge.tsx';

const ROLE: Record<Row['role'], string> = { system: 'sys', user: 'user', assistant: 'asst' };

function toolsLabel(row: Row): string {
  if (row.tools.length === 0) return row.compaction === 'boundary' ? '— compaction —' : '';
  const first = row.role === 'user' ? `↳ ${row.tools[0]}` : row.tools[0];
  return row.tools.length > 1 ? `${first} +${row.tools.length - 1}` : first;
}

type Props = {
  row: Row;
  notes: RowNotes | undefined;
  /** Its tool results and events are the previous run's (this run's window is on its way): shown dimmed. */
  staleNotes: boolean;
  /** Token bar scale in [0, 1]. */
  scale: number;
  selected: boolean;
  match: boolean;
  top: number;
  height: number;
};

/** One message: index, role, tools, token bar, tiers, marks, a one-line preview (as text). */
export const TranscriptRow = memo(function TranscriptRow({
  row,
  notes,
  staleNotes,
  scale,
  selected,
  match,
  top,
  height,
}: Props) {
  const select = useStore((s) => s.viewActions.selectMessage);
  const encoding = useStore((s) => s.config.encoding);
  const results = notes?.results ?? [];
  const cls = ['row', `role-${row.role}`];
  if (selected) cls.push('selected');
  if (match) cls.push('match');
  if (row.meta) cls.push('meta');
  if (row.compaction) cls.push(`compaction-${row.compaction}`);
  if (staleNotes && notes && (notes.results.length > 0 || notes.events.length > 0)) cls.push('notes-stale');
  return (
    <div
      data-testid="transcript-row"
      data-message-index={row.index}
      data-role={row.role}
      data-notes-stale={staleNotes || undefined}
      aria-selected={selected}
      role="option"
      tabIndex={-1}
      className={cls.join(' ')}
      style={{ transform: `translateY(${top}px)`, height }}
      onMouseDown={() => select(row.index)}
      title={row.tools.length > 1 ? row.tools.join(', ') : undefined}
    >
      <span className="c-index num">{row.index}</span>
      <span className="c-role">{ROLE[row.role]}</span>
      <span className="c-tools">{visibleText(toolsLabel(row))}</span>
      <span className="c-bar" aria-hidden="true">
        <span style={{ width: `${Math.max(2, scale * 100)}%`, background: heat(scale) }} />
      </span>
      <span
        className={row.exact === false ? 'c-tokens num estimate' : 'c-tokens num'}
        title={
          row.exact === false
            ? `≈${row.tokens.toLocaleString('en-US')} tokens (estimate: exact counts still running)`
            : `${row.tokens.toLocaleString('en-US')} tokens (counted with ${encoding})`
        }
      >
        {fmtTokens(row.tokens)}
      </span>
      <span className="c-tiers">
        {results.map((r) => (
          <TierBadge key={r.toolUseId} result={r} />
        ))}
        {notes && notes.events.length > 0 && (
          <span className="events-count" title={`${notes.events.length} rewrite event(s) touch this message`}>
            ✎{notes.events.length > 1 ? notes.events.length : ''}
          </span>
        )}
      </span>
      <span className="c-marks">
        <RowMarks row={row} notes={notes} />
      </span>
      <span className="c-preview">{visibleText(row.preview)}</span>
    </div>
  );
});
