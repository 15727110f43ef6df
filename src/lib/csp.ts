// The Content-Security-Policy and the other security headers Tierscope is served with (SPEC §6, §10; issue 19,
// item 9). One module for every server of the app — `vite preview`/dev (vite.config.ts), `tierscope serve`, and
// the static-hosting recipe in the README — so they cannot drift. Pure data, no project imports.
//
// Two policies, because a document and a worker get their policy differently:
// - HTML documents get DOCUMENT_POLICY: every fetch directive except connect-src, plus `frame-ancestors 'none'`
//   (which a <meta> policy cannot express). connect-src is left to the page's runtime <meta> policy
//   (src/state/csp.ts): it names the one summarizer endpoint this tab allowed, and a policy can only be
//   narrowed after it is delivered, never widened.
// - Everything else — above all the worker scripts, whose response headers are the workers' only policy (a
//   worker does not inherit the page's) — gets WORKER_POLICY: this origin only, connections included. The
//   engine and counting workers never need the network, so no prototype `fetch` or cross-origin `import()`
//   from a worker reaches another origin.
// - The engine worker's own script gets ENGINE_WORKER_POLICY: WORKER_POLICY with `'wasm-unsafe-eval'` in
//   script-src, which lets it compile WebAssembly (sql.js, the SQLite that reads opencode's database, from the
//   `.wasm` served by this origin) and nothing else: no eval, no other worker or page may.

/** Fetch directives shared by every policy: this origin only (data:/blob: for images, fonts and workers). */
const SHARED: [string, string][] = [
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"], // Monaco injects <style> elements; no remote stylesheet is allowed
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self' data:"],
  ['media-src', "'none'"],
  ['frame-src', "'none'"],
  ['worker-src', "'self' blob:"],
  ['manifest-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
];

function join(d: [string, string][]): string {
  return d.map(([k, v]) => `${k} ${v}`).join('; ');
}

/** The policy written in index.html's <meta>: everything except default-src and connect-src. */
export const STATIC_POLICY = join(SHARED);

/** The full policy a page runs under: connections to this origin and, when given, one endpoint origin. */
export function fullPolicy(endpointOrigin: string | null): string {
  const connect = endpointOrigin ? `'self' ${endpointOrigin}` : "'self'";
  return join([['default-src', "'self'"], ...SHARED, ['connect-src', connect]]);
}

const FRAME = "frame-ancestors 'none'";

/** The header policy of HTML documents (connect-src comes from the page's runtime <meta>). */
export const DOCUMENT_POLICY = `${STATIC_POLICY}; ${FRAME}`;

/** The header policy of every other response: the workers' policy, this origin only. */
export const WORKER_POLICY = `${fullPolicy(null)}; ${FRAME}`;

/** The engine worker's policy: the workers' policy, WebAssembly compilation allowed (sql.js). */
export const ENGINE_WORKER_POLICY = WORKER_POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");

/** Whether a request path is the engine worker's script (`engine.worker-<hash>.js` built, `engine.worker.ts` in dev). */
function isEngineWorkerPath(pathname: string): boolean {
  const path = pathname.split(/[?#]/, 1)[0];
  return /^engine\.worker[-.\w]*\.(js|ts)$/.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Headers sent with every response, whatever it is. */
const COMMON: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Whether a request path is served as an HTML document (`/`, a folder, `*.html`, or an extension-less SPA path). */
export function isDocumentPath(pathname: string): boolean {
  const path = pathname.split(/[?#]/, 1)[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '' || /\.html?$/i.test(last) || !last.includes('.');
}

/** The security headers for a response to `pathname` (a document, or anything else: scripts, workers, data). */
export function securityHeaders(pathname: string): Record<string, string> {
  return {
    'Content-Security-Policy': isDocumentPath(pathname)
      ? DOCUMENT_POLICY
      : isEngineWorkerPath(pathname)
        ? ENGINE_WORKER_POLICY
        : WORKER_POLICY,
    ...COMMON,
  };
}
