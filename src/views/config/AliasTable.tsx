import { ALIASES } from '../../protocol/index.ts';

/** The tool alias table (data in pipeline/aliases.ts), read-only: which raw names floors and caps match. */
export function AliasTable() {
  const rows = Object.entries(ALIASES).sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
  return (
    <div className="cfg-aliases" data-testid="alias-table">
      <p className="muted">
        Tool names in floors, caps and exclusions match the raw name or its canonical alias. MCP tools{' '}
        <code>mcp__&lt;server&gt;__browser_X</code> become <code>browser_X</code>; patterns may end in <code>*</code>.
      </p>
      <table>
        <thead>
          <tr>
            <th>tool name in the log</th>
            <th>canonical alias</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([raw, canon]) => (
            <tr key={raw}>
              <td className="mono">{raw}</td>
              <td className="mono">{canon}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
