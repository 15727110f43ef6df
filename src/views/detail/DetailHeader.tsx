import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Row } from '../../protocol/index.ts';
import { threadRows, useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { visibleText } from '../common/visible-text.ts';
import { notesFor } from '../transcript/row-notes.ts';
import type { NotesWindow } from '../transcript/use-notes.ts';
import { EventList } from './EventList.tsx';
import { ResultFate } from './ResultFate.tsx';

/** The readable part of the detail: who, what, and what the pipeline did to this message. */
export function DetailHeader({ row, window }: { row: Row; window: NotesWindow }) {
  const { result, thread, rows } = useStore(
    useShallow((s) => ({ result: s.run.result, thread: s.view.thread, rows: threadRows(s) })),
  );
  const notes = useMemo(() => notesFor(result, thread, rows, window.notes), [result, thread, rows, window.notes]).get(
    row.index,
  );
  // The previous run's fates and rewrites while this run's are on their way: dimmed.
  const stale = window.notes !== null && window.notes.runId !== result?.runId ? 'notes-stale' : undefined;
  // The simulated breaks whose first rewrite is this message, in timeline order.
  const breaks =
    result?.breaks.filter((b) => b.source === 'simulated' && b.thread === thread && b.messageIndex === row.index) ?? [];
  return (
    <div className="detail-head" data-testid="detail-header">
      <div className="detail-title">
        <span className="num">#{row.index}</span> <span className={`role-tag role-${row.role}`}>{row.role}</span>
        {row.tools.length > 0 && <span className="detail-tools"> {visibleText(row.tools.join(', '))}</span>}
        <span className="num muted">
          {' '}
          · ≈{fmtTokens(row.tokens)} tokens{row.line > 0 ? ` · line ${row.line}` : ''}
          {row.request !== undefined ? ` · response of request ${row.request}` : ''}
        </span>
      </div>
      {row.compaction && (
        <div className="note">
          {row.compaction === 'summary' ? 'The agent’s own compaction summary.' : 'A compaction boundary.'}
        </div>
      )}
      {notes && notes.results.length > 0 && (
        <section className={stale}>
          <div className="sub-title">Tool results · {notes.results.length}</div>
          <ul className="fates">
            {notes.results.map((r) => (
              <ResultFate key={r.toolUseId} r={r} />
            ))}
          </ul>
        </section>
      )}
      {notes && notes.events.length > 0 && (
        <section className={stale}>
          <div className="sub-title">Rewrites · {notes.events.length}</div>
          <EventList events={notes.events} />
        </section>
      )}
      {notes && notes.pairing.length > 0 && (
        <section>
          <div className="sub-title">Pairing · {notes.pairing.length}</div>
          <ul className="pairing-notes">
            {notes.pairing.map((v) => (
              <li key={`${v.request}|${v.stage}|${v.rule}|${v.toolUseId ?? ''}`} className={`sev-${v.severity}`}>
                <span className="muted">
                  request {v.request} · {v.stage} · {v.rule}:
                </span>{' '}
                {v.error}
              </li>
            ))}
          </ul>
        </section>
      )}
      {breaks.length > 0 && (
        <section>
          <div className="sub-title">Cache breaks caused here</div>
          <ul className="pairing-notes">
            {breaks.map((b) => (
              <li key={b.request}>
                request {b.request}: {b.detail ?? b.cause} (≈
                {fmtTokens(b.tokens)} tokens re-written)
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
