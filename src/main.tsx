// Browser entry: installs the page's Content-Security-Policy (first, before anything else runs), then
// mounts the app, the engine-stopped notice, and the http summarizer's client; warms font matching when idle.
import './state/csp-boot.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './views/app/styles.css';
import { startEngineStatus } from './state/engine-status.ts';
import { startSummarizerClient } from './state/summarizer-client.ts';
import { App } from './views/app/App.tsx';
import { EngineStopped } from './views/app/EngineStopped.tsx';
import { warmFonts, whenIdle } from './views/app/font-warmup.ts';

startEngineStatus();
startSummarizerClient();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
      <EngineStopped />
    </StrictMode>,
  );
  whenIdle(() => warmFonts());
}
