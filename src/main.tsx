// Browser entry: mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './views/app/styles.css';
import { App } from './views/app/App.tsx';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
