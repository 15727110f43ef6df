import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app is static and works offline: monaco and the tokenizer ranks are bundled (no CDN), the engine
// runs in an ES-module worker. A strict CSP lives in index.html.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [
            { name: 'monaco', test: /node_modules[\\/](monaco-editor|@monaco-editor)[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1', port: 5173 },
});
