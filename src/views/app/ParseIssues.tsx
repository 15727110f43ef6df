import type { ParseIssue } from '../../protocol/index.ts';
import { visibleText } from '../common/visible-text.ts';

const SHOWN = 500;

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** Problems the parser met, with line numbers: a collapsed count that opens into a list. Notes alone (what was
 *  bridged and lost nothing) read as notes, not as an alarm. */
export function ParseIssues({ issues, open = false }: { issues: readonly ParseIssue[]; open?: boolean }) {
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.filter((i) => i.severity === 'warning').length;
  const infos = issues.length - errors - warnings;
  const sorted = [...issues].sort((a, b) => a.line - b.line);
  return (
    <details className="parse-issues" data-testid="parse-issues" open={open}>
      <summary className={errors > 0 ? 'has-errors' : warnings > 0 ? 'has-warnings' : 'has-notes'}>
        {errors + warnings > 0 ? plural(issues.length, 'parse issue') : plural(issues.length, 'parse note')}
        <span className="issue-counts">
          {errors > 0 && <span className="sev-error"> · {plural(errors, 'error')}</span>}
          {warnings > 0 && <span className="sev-warning"> · {plural(warnings, 'warning')}</span>}
          {infos > 0 && errors + warnings > 0 && <span className="muted"> · {infos} info</span>}
          {infos > 0 && errors + warnings === 0 && <span className="muted"> · harmless</span>}
        </span>
      </summary>
      <ol className="issue-list">
        {sorted.slice(0, SHOWN).map((i, k) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity beyond their position
            key={k}
            data-testid="parse-issue"
            data-line={i.line}
            data-severity={i.severity}
          >
            <span className={`sev sev-${i.severity}`}>{i.severity}</span>
            <span className="num issue-line">
              {i.file ? `${i.file}:` : ''}line {i.line}
              {i.column !== undefined ? `:${i.column}` : ''}
            </span>
            <span className="issue-message">{visibleText(i.message)}</span>
          </li>
        ))}
        {issues.length > SHOWN && <li className="muted">… and {issues.length - SHOWN} more</li>}
      </ol>
    </details>
  );
}
