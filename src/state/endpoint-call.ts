// One call to the user-configured summarizer endpoint (OpenAI Chat Completions or Anthropic Messages shape) from the
// page: the request (the key in a header, never in the URL; no credentials, no referrer, no redirects), the reply's
// text, or a plain error naming the status and the provider's message. Used by the http summarizer and by the
// compaction view's model probes; never called without the key the user typed for this tab.
import type { SummaryOutcome } from '../protocol/index.ts';
import type { ApiKind, EndpointSettings } from './csp.ts';

/** One call: the user's prompt, the system prompt and the reply's token budget. */
export type EndpointCall = { prompt: string; system: string; maxTokens: number };

const TIMEOUT_MS = 90_000;

/** The HTTP request for one call (pure; the key goes in a header, never in the URL). */
function buildRequest(s: EndpointSettings, key: string, call: EndpointCall): { url: string; init: RequestInit } {
  const maxTokens = call.maxTokens;
  const common: RequestInit = {
    method: 'POST',
    mode: 'cors',
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
    referrerPolicy: 'no-referrer',
  };
  if (s.kind === 'anthropic') {
    return {
      url: s.endpoint,
      init: {
        ...common,
        headers: {
          'content-type': 'application/json',
          'x-api-key': key,
          'anthropic-version': '2023-06-01',
          'anthropic-dangerous-direct-browser-access': 'true',
        },
        body: JSON.stringify({
          model: s.model,
          max_tokens: maxTokens,
          system: call.system,
          messages: [{ role: 'user', content: call.prompt }],
        }),
      },
    };
  }
  return {
    url: s.endpoint,
    init: {
      ...common,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        model: s.model,
        max_tokens: maxTokens,
        temperature: 0,
        messages: [
          { role: 'system', content: call.system },
          { role: 'user', content: call.prompt },
        ],
      }),
    },
  };
}

function textParts(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v
    .map((p) =>
      p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
        ? (p as { text: string }).text
        : '',
    )
    .join('');
}

/** The summary text in a 2xx reply body, or why there is none (pure). */
function parseReply(kind: ApiKind, body: unknown): SummaryOutcome {
  const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  let text = '';
  if (kind === 'anthropic') text = textParts(o.content);
  else {
    const choice = Array.isArray(o.choices) ? (o.choices[0] as Record<string, unknown> | undefined) : undefined;
    const message = choice?.message as Record<string, unknown> | undefined;
    text = textParts(message?.content);
  }
  text = text.trim();
  if (text) return { ok: true, text };
  return {
    ok: false,
    error:
      kind === 'anthropic'
        ? 'the reply has no text content (expected an Anthropic Messages response)'
        : 'the reply has no choices[0].message.content (expected a Chat Completions response)',
  };
}

/** A plain error for a non-2xx reply: status and the provider's message when it gave one. */
function errorOf(status: number, statusText: string, body: string): string {
  let detail = '';
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (typeof m === 'string') detail = m;
  } catch {
    detail = body.replace(/\s+/g, ' ').trim();
  }
  if (detail.length > 200) detail = `${detail.slice(0, 200)}…`;
  return `HTTP ${status}${statusText ? ` ${statusText}` : ''}${detail ? `: ${detail}` : ''}`;
}

/** Make one call to the user's endpoint; a failure is an outcome (its error text may echo the key: the caller
 *  scrubs it before showing it). */
export async function callEndpoint(s: EndpointSettings, key: string, call: EndpointCall): Promise<SummaryOutcome> {
  const { url, init } = buildRequest(s, key, call);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return {
      ok: false,
      error: `could not reach ${new URL(url).origin} (${why}; blocked by CORS, offline, or timed out)`,
    };
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) return { ok: false, error: errorOf(res.status, res.statusText, body) };
  try {
    return parseReply(s.kind, JSON.parse(body));
  } catch {
    return { ok: false, error: 'the reply is not JSON' };
  }
}
