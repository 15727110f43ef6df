// The page's Content-Security-Policy (SPEC §6, §10): nothing remote may be loaded or contacted, except the
// one summarizer endpoint the user typed for this tab (SPEC §4 `http`).
//
// Why two <meta> policies, and why a reload when the endpoint changes:
// - A CSP in a <meta> can only ever be tightened. Every policy a document receives is enforced (a request must
//   pass all of them), and removing the <meta> element later does not lift its policy. So a static
//   `connect-src 'self'` in index.html would forbid the summarizer endpoint for the life of the page, and no
//   script could relax it (checked in Chromium: a second, looser meta has no effect).
// - index.html therefore carries STATIC_POLICY: every fetch directive spelled out (script, style, img, font,
//   media, frame, worker, manifest, object) plus base-uri and form-action — but no default-src and no
//   connect-src, the two that would pin connections to 'self'.
// - The first module the entry evaluates (csp-boot.ts) adds the full policy, connect-src included:
//   `connect-src 'self'`, plus exactly the origin of the summarizer endpoint when this tab has allowed one.
//   Nothing can connect before it: only this origin's scripts run (script-src 'self'), and this is the first.
// - Allowing another endpoint stores it in this tab's sessionStorage (the endpoint URL, API kind and model —
//   never the key) and reloads, so the new document starts with a policy naming that origin only.
// - The summarizer's calls are made from the page (src/state/summarizer-client.ts), never from a worker: a
//   worker loaded from a same-origin URL does not inherit a <meta> CSP (verified in Chromium), so only the
//   page is bound by this policy. The workers get theirs from the server's response headers instead (the policy
//   texts and the header set live in src/lib/csp.ts, shared with vite.config.ts and `tierscope serve`).

import { fullPolicy } from '../protocol/index.ts';

export { fullPolicy, STATIC_POLICY } from '../protocol/index.ts';

export type ApiKind = 'openai' | 'anthropic';

/** The summarizer endpoint settings kept for this tab (sessionStorage). The API key is never among them. */
export type EndpointSettings = { endpoint: string; kind: ApiKind; model: string };

const STORAGE_KEY = 'tierscope.summarizer-endpoint';

const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origin a summarizer endpoint URL may be allowed as, or why it cannot be. */
export function endpointOrigin(url: string): { ok: true; origin: string } | { ok: false; error: string } {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return { ok: false, error: 'Not a URL: type the full address, e.g. https://api.openai.com/v1/chat/completions' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return { ok: false, error: `Only http(s) endpoints can be called (not ${u.protocol})` };
  if (u.username || u.password) return { ok: false, error: 'Put credentials in the API key field, not in the URL' };
  if (!ORIGIN.test(u.origin)) return { ok: false, error: `Unusual origin ${u.origin}` };
  return { ok: true, origin: u.origin };
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** This tab's endpoint settings (null when none were allowed, or the stored value is unusable). */
export function storedEndpoint(): EndpointSettings | null {
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<EndpointSettings> | null;
    if (!v || typeof v.endpoint !== 'string' || typeof v.model !== 'string') return null;
    if (v.kind !== 'openai' && v.kind !== 'anthropic') return null;
    if (!endpointOrigin(v.endpoint).ok) return null;
    return { endpoint: v.endpoint, kind: v.kind, model: v.model };
  } catch {
    return null;
  }
}

let installed: string | null | undefined;

/** Add the full policy to the document (once). Returns the endpoint origin it allows, if any. */
export function installPolicy(doc: Document = document): string | null {
  if (installed !== undefined) return installed;
  const settings = storedEndpoint();
  const check = settings ? endpointOrigin(settings.endpoint) : null;
  const origin = check?.ok ? check.origin : null;
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = fullPolicy(origin);
  meta.dataset.policy = 'runtime';
  doc.head.appendChild(meta);
  installed = origin;
  return origin;
}

/** The endpoint origin the running page's policy allows (null: only this origin). */
export function allowedOrigin(): string | null {
  return installed ?? null;
}

/**
 * Keep endpoint settings for this tab. Returns true when the page must reload for the policy to allow the
 * endpoint's origin (a different origin than the one allowed now).
 */
export function saveEndpoint(settings: EndpointSettings): boolean {
  storage()?.setItem(STORAGE_KEY, JSON.stringify(settings));
  const check = endpointOrigin(settings.endpoint);
  return check.ok && check.origin !== allowedOrigin();
}

/** Forget this tab's endpoint (the next load allows only this origin again). */
export function forgetEndpoint(): boolean {
  storage()?.removeItem(STORAGE_KEY);
  return allowedOrigin() !== null;
}
