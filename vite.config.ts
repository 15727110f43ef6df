import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { sameOriginPreamble } from './scripts/dev-preamble.ts';
import { securityHeaders } from './src/lib/csp.ts';

// The app is static and works offline: monaco and the tokenizer ranks are bundled (no CDN), the engine
// runs in an ES-module worker. Every response carries the security headers of src/lib/csp.ts: HTML documents
// a policy with `frame-ancestors 'none'` (index.html's <meta> and the runtime <meta> add the rest), every other
// response — the worker scripts above all — the strict this-origin-only policy that binds the workers.
function securityHeadersPlugin(): Plugin {
  // Returns nothing: a function returned from these hooks would be run as a post-middleware hook.
  const use = (server: { middlewares: { use: (fn: Middleware) => unknown } }): void => {
    server.middlewares.use((req, res, next) => {
      for (const [k, v] of Object.entries(securityHeaders(req.url ?? '/'))) res.setHeader(k, v);
      next();
    });
  };
  return { name: 'tierscope-security-headers', configureServer: use, configurePreviewServer: use };
}

type Middleware = (req: { url?: string }, res: { setHeader: (k: string, v: string) => void }, next: () => void) => void;

export default defineConfig({
  // The dev server's React preamble is served from this origin, so dev runs under the production policy.
  plugins: [react(), sameOriginPreamble(), securityHeadersPlugin()],
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
