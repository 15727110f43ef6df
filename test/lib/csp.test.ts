import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_POLICY,
  ENGINE_WORKER_POLICY,
  isDocumentPath,
  STATIC_POLICY,
  securityHeaders,
  WORKER_POLICY,
} from '../../src/lib/csp.ts';

describe('security headers (src/lib/csp.ts)', () => {
  it('documents: the static policy plus frame-ancestors none; connections are left to the runtime <meta>', () => {
    expect(DOCUMENT_POLICY).toBe(`${STATIC_POLICY}; frame-ancestors 'none'`);
    expect(DOCUMENT_POLICY).not.toMatch(/connect-src|default-src/);
    for (const p of ['/', '/index.html', '/some/spa/path', '/?src=samples/a.jsonl', '/#s=1.abc'])
      expect(securityHeaders(p)['Content-Security-Policy']).toBe(DOCUMENT_POLICY);
  });

  it('everything else (worker scripts above all): this origin only, connections included', () => {
    expect(WORKER_POLICY).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(WORKER_POLICY).toMatch(/connect-src 'self'; frame-ancestors 'none'$/);
    expect(WORKER_POLICY).not.toMatch(/https?:|\*/);
    for (const p of ['/assets/count.worker-03oyL1wR.js?x=1', '/samples/index.json', '/assets/sql-wasm-browser-x.wasm'])
      expect(securityHeaders(p)['Content-Security-Policy']).toBe(WORKER_POLICY);
    expect(WORKER_POLICY).not.toContain('wasm-unsafe-eval');
    expect(DOCUMENT_POLICY).not.toContain('wasm-unsafe-eval');
  });

  it('the engine worker alone may compile WebAssembly (sql.js), every other directive the same', () => {
    expect(ENGINE_WORKER_POLICY).toBe(
      WORKER_POLICY.replace("script-src 'self';", "script-src 'self' 'wasm-unsafe-eval';"),
    );
    for (const p of ['/assets/engine.worker-Ckx6HHyA.js', '/worker/engine.worker.ts?worker_file&type=module'])
      expect(securityHeaders(p)['Content-Security-Policy']).toBe(ENGINE_WORKER_POLICY);
  });

  it('every response: no sniffing, no framing, no referrer, no cross-origin embedding', () => {
    const h = securityHeaders('/assets/x.js');
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['X-Frame-Options']).toBe('DENY');
    expect(h['Referrer-Policy']).toBe('no-referrer');
    expect(h['Cross-Origin-Resource-Policy']).toBe('same-origin');
    expect(isDocumentPath('/a.b/')).toBe(true);
    expect(isDocumentPath('/file.HTML')).toBe(true);
  });

  it('the preview and dev servers use this module', async () => {
    const { readFileSync } = await import('node:fs');
    const vite = readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8');
    expect(vite).toContain("import { securityHeaders } from './src/lib/csp.ts'");
    expect(vite).toMatch(/configurePreviewServer: use/);
  });
});
