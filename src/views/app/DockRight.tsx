import type { ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { BreaksTable } from '../breaks/BreaksTable.tsx';
import { PairingPanel } from '../pairing/PairingPanel.tsx';
import { useLayout } from './layout-state.ts';

type TabId = 'breaks' | 'pairing';

function Tab({
  id,
  tab,
  onPick,
  children,
}: {
  id: TabId;
  tab: TabId;
  onPick: (t: TabId) => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="tab"
      data-testid={`dock-tab-${id}`}
      aria-selected={tab === id}
      onClick={() => onPick(id)}
    >
      {children}
    </button>
  );
}

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
  const tab: TabId = chosen ?? (errors > 0 || (warnings > 0 && breaks === 0) ? 'pairing' : 'breaks');
  return (
    <section className="dock-right">
      <div className="dock-tabs" role="tablist">
        <Tab id="breaks" tab={tab} onPick={setTab}>
          Cache breaks <span className="num muted">{breaks}</span>
        </Tab>
        <Tab id="pairing" tab={tab} onPick={setTab}>
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
        </Tab>
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
