import { useStore } from '../../state/store.ts';

/** Beside load-status: what a share link or file could not restore (each field fell back on its own). */
export function LinkWarnings() {
  const warnings = useStore((s) => s.transcript.linkWarnings);
  if (!warnings || warnings.length === 0) return null;
  return (
    <details
      className="link-warnings"
      data-testid="link-warnings"
      title="Parts of the share link that could not be restored; each fell back on its own"
    >
      <summary className="sev-warning">⚠ link: {warnings.length} not restored</summary>
      <ul>
        {warnings.map((w) => (
          <li key={w} data-testid="link-warning">
            {w}
          </li>
        ))}
      </ul>
    </details>
  );
}
