import { useFolder } from '../../state/folder.ts';

/** Date range (local days) and project filters of the sessions table. */
export function SessionsFilters({ projects }: { projects: readonly string[] }) {
  const query = useFolder((s) => s.query);
  const setQuery = useFolder((s) => s.folderActions.setQuery);
  return (
    <div className="sessions-filters">
      <label>
        from{' '}
        <input
          type="date"
          data-testid="sessions-since"
          value={query.since ?? ''}
          onChange={(e) => void setQuery({ since: e.target.value || null })}
        />
      </label>
      <label>
        to{' '}
        <input
          type="date"
          data-testid="sessions-until"
          value={query.until ?? ''}
          onChange={(e) => void setQuery({ until: e.target.value || null })}
        />
      </label>
      <label>
        project{' '}
        <select
          data-testid="sessions-project"
          value={query.projects[0] ?? ''}
          onChange={(e) => void setQuery({ projects: e.target.value ? [e.target.value] : [] })}
        >
          <option value="">all ({projects.length})</option>
          {projects.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
