import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, formatBytes } from '../../protocol/index.ts';
import { useFolder } from '../../state/folder.ts';
import { DayTotals } from './DayTotals.tsx';
import { SessionsFilters } from './SessionsFilters.tsx';
import { SessionsTable } from './SessionsTable.tsx';
import './sessions.css';

function ScanProgress() {
  const progress = useFolder((s) => s.progress);
  const cancel = useFolder((s) => s.folderActions.cancel);
  if (!progress) return null;
  const fraction = progress.total > 0 ? progress.done / progress.total : 0;
  return (
    <div className="sessions-progress" data-testid="sessions-progress">
      <progress value={fraction} max={1} />
      <span>
        scanning {progress.done}/{progress.total || '…'} sessions <span className="muted">{progress.path}</span>
      </span>
      <button type="button" data-testid="sessions-cancel" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

/** The sessions of the opened folder: what was read, per-day totals, the filters and the table. */
export function SessionsPage() {
  const { status, rootName, scan, view, error } = useFolder(
    useShallow((s) => ({ status: s.status, rootName: s.rootName, scan: s.scan, view: s.view, error: s.error })),
  );
  const show = useFolder((s) => s.folderActions.show);
  const opened = useFolder((s) => s.opened);
  const rows = view?.rows ?? [];
  const usd = rows.reduce((n, r) => n + (r.usd ?? 0), 0);
  return (
    <section className="sessions-page" data-testid="sessions-page">
      <div className="sessions-bar">
        <strong className="sessions-root">{rootName}</strong>
        {scan && (
          <span className="muted" data-testid="sessions-summary">
            {view && view.rows.length !== view.total ? `${view.rows.length} of ${view.total}` : scan.sessions} sessions
            · {fmtUsd(usd)} recorded · {scan.files} files, {formatBytes(scan.bytes)} read in {scan.ms} ms
            {scan.cancelled ? ' · stopped before the end' : ''}
          </span>
        )}
        {status === 'scanning' && <ScanProgress />}
        {error && <span className="error">{error}</span>}
        {opened && (
          <button type="button" className="sessions-back" onClick={() => show(false)}>
            Back to {opened.slice(opened.lastIndexOf('/') + 1)}
          </button>
        )}
      </div>
      {scan && <SessionsFilters projects={scan.projects} />}
      {view?.error && <div className="error">{view.error}</div>}
      {view && <DayTotals days={view.days} />}
      {scan && scan.skipped.length > 0 && (
        <details className="sessions-skipped" data-testid="sessions-skipped">
          <summary>{scan.skipped.length} files are not sessions Tierscope reads</summary>
          <ul>
            {scan.skipped.map((s) => (
              <li key={s.path}>
                <code>{s.path}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {view && <SessionsTable rows={rows} />}
    </section>
  );
}
