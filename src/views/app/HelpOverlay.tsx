import { useStore } from '../../state/store.ts';

const KEYS: [string, string][] = [
  ['j / k', 'next / previous row'],
  ['[ / ]', 'previous / next request'],
  ['Enter', 'open the selected row in the detail pane'],
  ['/', 'search rows (preview, tools)'],
  ['n / N', 'next / previous search match'],
  ['t / T', 'next / previous thread'],
  ['c', 'go to the config panel'],
  ['s', 'share this view as a link (the compaction view too)'],
  ['j / k, Enter', 'in the compaction view: next / previous probe item, go to its message'],
  ['drag · scroll', 'on the cache timeline: zoom to a range of requests (Shift+scroll pans)'],
  ['+ / − / 0', 'on the focused timeline: zoom in, out, show every request; ← → select, Shift+← → pan'],
  ['↑ / ↓', 'in a window or reserve field: ±1,000 tokens (Shift ±4,000); Enter runs a typed value'],
  ['?', 'this help'],
  ['Esc', 'close, clear the search, leave a field'],
  ['Back / Forward', 'the browser’s buttons move between views of the app'],
];

/** The key map, over everything; Esc or a click outside closes it. */
export function HelpOverlay() {
  const open = useStore((s) => s.view.help);
  const toggleHelp = useStore((s) => s.viewActions.toggleHelp);
  if (!open) return null;
  return (
    <div className="overlay" data-testid="help-overlay">
      <button type="button" className="overlay-backdrop" aria-label="Close" onClick={() => toggleHelp(false)} />
      <div className="help" role="dialog" aria-label="Keyboard shortcuts">
        <div className="dialog-title">Keyboard</div>
        <table>
          <tbody>
            {KEYS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">Drop a file anywhere to load it. Numbers marked ≈ are estimates.</p>
      </div>
    </div>
  );
}
