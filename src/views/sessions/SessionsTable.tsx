import type { SessionRow, SortKey } from '../../protocol/index.ts';
import { useFolder } from '../../state/folder.ts';
import { useFixedRows } from '../common/fixed-rows.ts';
import { fmtDollars, fmtDuration, fmtRate, fmtStart } from './session-format.ts';

const ROW_HEIGHT = 24;

type Column = { key: SortKey; label: string; title: string; num?: boolean; cell: (r: SessionRow) => string };

const COLUMNS: Column[] = [
  {
    key: 'project',
    label: 'project',
    title: 'The folder the session sits in (Codex: its working folder)',
    cell: (r) => r.project,
  },
  {
    key: 'title',
    label: 'title',
    title:
      'The session’s own title, else its first prompt (“sub-agent:” a sub-agent file whose session file is not here)',
    cell: (r) => `${r.orphan ? 'sub-agent: ' : ''}${r.title ?? '(untitled)'}`,
  },
  { key: 'start', label: 'start', title: 'First timestamp in the log (local time)', cell: (r) => fmtStart(r.start) },
  { key: 'duration', label: 'duration', title: 'First to last timestamp', num: true, cell: fmtDuration },
  {
    key: 'models',
    label: 'models',
    title: 'Models that answered its requests',
    cell: (r) => r.models.join(', ') || '—',
  },
  {
    key: 'requests',
    label: 'req',
    title: 'Requests, sub-agents included (counted)',
    num: true,
    cell: (r) => String(r.requests),
  },
  { key: 'subagents', label: 'sub', title: 'Sub-agent threads (counted)', num: true, cell: (r) => String(r.subagents) },
  {
    key: 'usd',
    label: 'USD',
    title: 'Recorded: the observed usage of every billed response at list prices',
    num: true,
    cell: (r) => `${fmtDollars(r.usd)}${r.unpricedModels.length > 0 ? ' *' : ''}`,
  },
  {
    key: 'hitRate',
    label: 'hit',
    title: 'Observed cache hit rate: cache reads / prompt tokens',
    num: true,
    cell: (r) => fmtRate(r.hitRate),
  },
  {
    key: 'observedBreaks',
    label: 'breaks',
    title: 'Observed cache breaks',
    num: true,
    cell: (r) => String(r.observedBreaks),
  },
  {
    key: 'compactions',
    label: 'compact',
    title: 'The agent’s own compactions (counted)',
    num: true,
    cell: (r) => String(r.compactions),
  },
  {
    key: 'pairingErrors',
    label: 'pairing',
    title: 'Pairing errors the provider would return for the recorded input (counted)',
    num: true,
    cell: (r) => String(r.pairingErrors),
  },
];

/** The self-check a scan makes (sums of billed responses against the log's own totals), and what a fork is of. */
function checkNote(r: SessionRow): string {
  const sums =
    r.sumsOff > 0
      ? `\n⚠ self-check: ${r.sumsOff} thread(s) whose billed responses disagree with the log's own totals`
      : '';
  const fork = r.forkOf ? `\na fork of ${r.forkOf} (its parent is not in this folder)` : '';
  const orphan = r.orphan
    ? `\na sub-agent of session ${r.sessionId ?? '(unknown)'}, whose session file is not in this folder`
    : '';
  return `${sums}${fork}${orphan}`;
}

function rowTitle(r: SessionRow): string {
  const unpriced = r.unpricedModels.length > 0 ? `\nno price for ${r.unpricedModels.join(', ')}: not in USD` : '';
  return `${r.path}${r.title ? `\n${r.title}` : ''}${unpriced}${checkNote(r)}`;
}

/** The sessions, one virtualized row each; a header click sorts (again: the other way); a row click opens it. */
export function SessionsTable({ rows }: { rows: readonly SessionRow[] }) {
  const query = useFolder((s) => s.query);
  const { setQuery, openSession } = useFolder((s) => s.folderActions);
  const opened = useFolder((s) => s.opened);
  const { parent, v } = useFixedRows(rows.length, ROW_HEIGHT);
  return (
    <div className="sessions-table" data-testid="sessions-table" data-rows={rows.length}>
      <div className="sessions-head">
        {COLUMNS.map((c) => {
          const sorted = query.sort === c.key;
          return (
            <button
              key={c.key}
              type="button"
              data-testid={`sessions-sort-${c.key}`}
              data-sort={sorted ? query.dir : undefined}
              aria-pressed={sorted}
              className={c.num ? 'num' : undefined}
              title={c.title}
              onClick={() =>
                void setQuery({
                  sort: c.key,
                  dir: sorted ? (query.dir === 'asc' ? 'desc' : 'asc') : c.num || c.key === 'start' ? 'desc' : 'asc',
                })
              }
            >
              {c.label}
              {sorted ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}
            </button>
          );
        })}
      </div>
      <div className="sessions-body" ref={parent} role="listbox" aria-label="sessions">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <div
                key={r.path}
                role="option"
                aria-selected={r.path === opened}
                tabIndex={0}
                data-testid="session-row"
                data-path={r.path}
                className={r.path === opened ? 'session-row opened' : 'session-row'}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                title={rowTitle(r)}
                onClick={() => void openSession(r)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void openSession(r);
                }}
              >
                {COLUMNS.map((c) => (
                  <span key={c.key} data-col={c.key} className={c.num ? 'num' : undefined}>
                    {c.cell(r)}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
