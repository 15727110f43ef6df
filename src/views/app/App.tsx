import { useEffect } from 'react';
import { useStore } from '../../state/store.ts';
import { ConfigPanel } from '../config/ConfigPanel.tsx';
import { DetailPane } from '../detail/DetailPane.tsx';
import { PairingPanel } from '../pairing/PairingPanel.tsx';
import { CacheTimeline } from '../timeline/CacheTimeline.tsx';
import { ThreadList } from '../transcript/ThreadList.tsx';
import { TokenHeatmap } from '../transcript/TokenHeatmap.tsx';
import { Transcript } from '../transcript/Transcript.tsx';
import { DropZone } from './DropZone.tsx';
import { Header } from './Header.tsx';
import { LoadStatus } from './LoadStatus.tsx';
import { SummaryBar } from './SummaryBar.tsx';
import { useStartup } from './use-startup.ts';

export function App() {
  const theme = useStore((s) => s.view.theme);
  useStartup();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <DropZone>
      <div className="app">
        <Header />
        <LoadStatus />
        <SummaryBar />
        <CacheTimeline />
        <div className="main">
          <aside className="left">
            <ThreadList />
            <TokenHeatmap />
          </aside>
          <section className="center">
            <Transcript />
          </section>
          <aside className="right">
            <DetailPane />
          </aside>
        </div>
        <div className="bottom">
          <ConfigPanel />
          <PairingPanel />
        </div>
      </div>
    </DropZone>
  );
}
