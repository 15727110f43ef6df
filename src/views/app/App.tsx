import { lazy, Suspense, useEffect } from 'react';
import { useFolder } from '../../state/folder.ts';
import { useStore } from '../../state/store.ts';
import { CompactionView } from '../compaction/CompactionView.tsx';
import { ConfigPanel } from '../config/ConfigPanel.tsx';
import { SessionsPage } from '../sessions/SessionsPage.tsx';
import { CacheTimeline } from '../timeline/CacheTimeline.tsx';
import { ThreadList } from '../transcript/ThreadList.tsx';
import { TokenHeatmap } from '../transcript/TokenHeatmap.tsx';
import { Transcript } from '../transcript/Transcript.tsx';
import { DockRight } from './DockRight.tsx';
import { DockSplitter } from './DockSplitter.tsx';
import { DropZone } from './DropZone.tsx';
import { Header } from './Header.tsx';
import { HelpOverlay } from './HelpOverlay.tsx';
import { LoadError } from './LoadError.tsx';
import { useLayout } from './layout-state.ts';
import { SummaryBar } from './SummaryBar.tsx';
import { useHistory } from './use-history.ts';
import { useKeys } from './use-keys.ts';
import { useStartup } from './use-startup.ts';

// The detail pane (and Monaco behind it) loads after first paint.
const DetailPane = lazy(() => import('../detail/DetailPane.tsx').then((m) => ({ default: m.DetailPane })));

export function App() {
  const theme = useStore((s) => s.view.theme);
  const dock = useLayout((s) => s.dock);
  const failed = useStore((s) => s.transcript.status === 'error');
  const compaction = useStore((s) => s.view.compaction);
  const sessions = useFolder((s) => s.shown);
  useStartup();
  useHistory();
  useKeys();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  if (sessions)
    return (
      <DropZone>
        <div className="app" style={{ gridTemplateRows: 'auto minmax(0, 1fr)' }}>
          <Header />
          <SessionsPage />
        </div>
        <HelpOverlay />
      </DropZone>
    );
  return (
    <DropZone>
      <div className="app" style={{ gridTemplateRows: `auto auto auto minmax(0, 1fr) 5px ${dock}px` }}>
        <Header />
        <SummaryBar />
        <CacheTimeline />
        <div className="main">
          <aside className="left">
            <ThreadList />
            <TokenHeatmap />
          </aside>
          <section className="center">{failed ? <LoadError /> : <Transcript />}</section>
          <aside className="right">
            <Suspense fallback={<div className="detail" />}>
              <DetailPane />
            </Suspense>
          </aside>
        </div>
        <DockSplitter />
        <div className="bottom">
          <ConfigPanel />
          <DockRight />
        </div>
      </div>
      <HelpOverlay />
      {compaction !== null && <CompactionView key={compaction} id={compaction} />}
    </DropZone>
  );
}
