import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { BreaksTable } from '../breaks/BreaksTable.tsx';
import { PairingPanel } from '../pairing/PairingPanel.tsx';
import { useLayout } from './layout-state.ts';

/** The dock's right half: the cache breaks table and the pairing panel as tabs. Pairing opens first when the
 *  provider would reject something; an "ok" takes a tab label, not half the dock. Both stay mounted. */
export function DockRight() {
  const { errors, warnings, breaks } = useStore(
    useShallow((s) => {
      const p = s.run.result?.pairing ?? [];
      const errors = p.filter((v) => v.severity === 'error').length;
      return { errors, warnings: p.length - errors, breaks: s.run.result?.breaks.length ?? 0 };
    }),
  );
  const chosen = useLayout((s) => s.dockTab);
  const setTab = useLayout((s) => s.setDockTab);
  const tab = chosen ?? (errors > 0 || (warnings > 0 && breaks === 0) ? 'pairing' : 'breaks');
  return (
    <section className="dock-right">
      <div className="dock-tabs" role="tablist">
        <button
          type="button"
          role="tab"
          data-testid="dock-tab-breaks"
          aria-selected={tab === 'breaks'}
          onClick={() => setTab('breaks')}
        >
          Cache breaks <span className="num muted">{breaks}</span>
        </button>
        <button
          type="button"
          role="tab"
          data-testid="dock-tab-pairing"
          aria-selected={tab === 'pairing'}
          onClick={() => setTab('pairing')}
        >
          Pairing{' '}
          {errors > 0 ? (
            <span className="pp-sev pp-sev-error">{errors} rejected</span>
          ) : warnings > 0 ? (
            <span className="pp-sev pp-sev-warning">{warnings} flagged</span>
          ) : (
            <span className="pp-ok" title="No pairing problems">
              ✓ ok
            </span>
          )}
        </button>
      </div>
      <div className="dock-pane" role="tabpanel" hidden={tab !== 'breaks'}>
        <BreaksTable />
      </div>
      <div className="dock-pane" role="tabpanel" hidden={tab !== 'pairing'}>
        <PairingPanel />
      </div>
    </section>
  );
}
