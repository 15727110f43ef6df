// The `http` summarizer's browser half (SPEC §4): the pipeline stays synchronous and deterministic — a run
// that needs a summary it does not have reports `pendingSummaries` and uses its fallback — and this module
// makes those calls from the page, to the one endpoint the page's CSP allows (csp.ts), hands the answers to
// the engine and asks for a re-run. Failed calls are answers too (cached as failures), so a failing endpoint
// meets the per-pass attempt budget and the circuit breaker exactly like the `fail` summarizer, and the loop
// settles: a call is made once per key, endpoint and model.
//
// The API key lives in this module's memory only, for this tab: never in the store (share links, URL state and
// exports are built from the store), never in localStorage, sessionStorage or IndexedDB, never in the URL,
// never logged; any error text that echoes it is scrubbed. Reloading the page forgets it.
import { create } from 'zustand';
import type { HttpCall, RunResult, SummaryAnswer, SummaryOutcome } from '../../worker/api.ts';
import { type ApiKind, allowedOrigin, type EndpointSettings, endpointOrigin, storedEndpoint } from './csp.ts';
import { engine, onEngineStopped } from './engine-client.ts';
import { useStore } from './store.ts';

export const DEFAULT_ENDPOINTS: Record<ApiKind, string> = {
  openai: 'https://api.openai.com/v1/chat/completions',
  anthropic: 'https://api.anthropic.com/v1/messages',
};

const SYSTEM =
  'You summarise parts of an AI agent’s working context for the agent itself. Reply with the summary text only: exact paths, identifiers, numbers and error strings; no preamble.';
const MAX_TOKENS = { result: 300, turns: 1500 } as const;
const CONCURRENCY = 4;
const TIMEOUT_MS = 90_000;
/** Re-runs in a row driven by new answers before the loop stops and says so. */
const MAX_ROUNDS = 30;

export type SummarizerPhase = 'off' | 'needs-endpoint' | 'needs-reload' | 'needs-key' | 'calling' | 'done' | 'stopped';

export type SummarizerStatus = {
  phase: SummarizerPhase;
  /** Calls the last run is waiting for. */
  pending: number;
  /** Calls made in this tab since the settings last changed: answered, failed, in flight. */
  ok: number;
  failed: number;
  inFlight: number;
  /** Distinct error texts of failed calls (key scrubbed), newest first, with counts. */
  errors: { text: string; count: number }[];
  note?: string;
  hasKey: boolean;
  settings: EndpointSettings | null;
};

export const useSummarizer = create<SummarizerStatus>()(() => ({
  phase: 'off',
  pending: 0,
  ok: 0,
  failed: 0,
  inFlight: 0,
  errors: [],
  hasKey: false,
  settings: storedEndpoint(),
}));

let apiKey: string | null = null;
let busy = false;
let rounds = 0;
let lastSettings = '';
const tried = new Set<string>();
const failedKeys = new Set<string>();

function scrub(text: string): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('••••') : text;
}

function setStatus(p: Partial<SummarizerStatus>): void {
  useSummarizer.setState(p);
}

function noteError(text: string): void {
  const errors = useSummarizer.getState().errors.slice();
  const i = errors.findIndex((e) => e.text === text);
  if (i >= 0) errors.splice(i, 1, { text, count: errors[i].count + 1 });
  else errors.unshift({ text, count: 1 });
  setStatus({ errors: errors.slice(0, 5) });
}

/** The HTTP request for one summarizer call (pure; the key goes in a header, never in the URL). */
function buildRequest(
  s: EndpointSettings,
  key: string,
  call: Pick<HttpCall, 'kind' | 'prompt'>,
): { url: string; init: RequestInit } {
  const maxTokens = MAX_TOKENS[call.kind];
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
          system: SYSTEM,
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
          { role: 'system', content: SYSTEM },
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

async function callOnce(s: EndpointSettings, key: string, call: HttpCall): Promise<SummaryOutcome> {
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

/** Where the summarizer stands for these settings (what the user must do before calls can be made). */
function readiness(): SummarizerPhase | null {
  const s = useSummarizer.getState().settings;
  if (!s) return 'needs-endpoint';
  const o = endpointOrigin(s.endpoint);
  if (!o.ok) return 'needs-endpoint';
  if (o.origin !== allowedOrigin()) return 'needs-reload';
  if (!apiKey) return 'needs-key';
  return null;
}

async function makeCalls(calls: HttpCall[], s: EndpointSettings, key: string): Promise<SummaryAnswer[]> {
  const answers: SummaryAnswer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const call = calls[next++];
      setStatus({ inFlight: useSummarizer.getState().inFlight + 1 });
      const out = await callOnce(s, key, call);
      const outcome: SummaryOutcome = out.ok ? out : { ok: false, error: `http summarizer: ${scrub(out.error)}` };
      tried.add(call.key);
      if (outcome.ok) setStatus({ ok: useSummarizer.getState().ok + 1 });
      else {
        failedKeys.add(call.key);
        setStatus({ failed: useSummarizer.getState().failed + 1 });
        noteError(outcome.error.replace(/^http summarizer: /, ''));
      }
      setStatus({ inFlight: useSummarizer.getState().inFlight - 1 });
      answers.push({ key: call.key, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, calls.length) }, worker));
  return answers;
}

/** React to a finished run: make the calls it is waiting for, fill the engine's cache, re-run. */
async function onRunResult(result: RunResult | undefined): Promise<void> {
  if (!result) return;
  if (result.settings.config.summarizer !== 'http') {
    setStatus({ phase: 'off', pending: 0 });
    return;
  }
  const settingsKey = JSON.stringify(result.settings);
  if (settingsKey !== lastSettings) {
    lastSettings = settingsKey;
    rounds = 0;
  }
  setStatus({ pending: result.pendingSummaries });
  if (result.pendingSummaries === 0) {
    rounds = 0;
    setStatus({ phase: 'done', note: undefined });
    return;
  }
  const blocked = readiness();
  if (blocked) {
    setStatus({ phase: blocked });
    return;
  }
  if (busy) return;
  const s = useSummarizer.getState().settings;
  const key = apiKey;
  if (!s || !key) return;
  if (++rounds > MAX_ROUNDS) {
    setStatus({
      phase: 'stopped',
      note: `Stopped after ${MAX_ROUNDS} rounds of calls in a row; change a setting or press Retry to go on.`,
    });
    return;
  }
  busy = true;
  setStatus({ phase: 'calling', note: undefined });
  try {
    const calls = (await engine().summaryCalls()).filter((c) => !tried.has(c.key));
    if (calls.length === 0) {
      setStatus({ phase: 'stopped', note: 'Every pending call was already made; its answer did not settle it.' });
      return;
    }
    const answers = await makeCalls(calls, s, key);
    // Settings changed while the calls were out: their answers belong to the old settings.
    if (apiKey !== key || useSummarizer.getState().settings !== s) return;
    await engine().fillSummaries(answers);
    useStore.getState().runActions.requestRun();
  } catch (e) {
    setStatus({ phase: 'stopped', note: scrub(e instanceof Error ? e.message : String(e)) });
  } finally {
    busy = false;
  }
}

async function restart(onlyFailures: boolean): Promise<void> {
  if (onlyFailures) for (const k of failedKeys) tried.delete(k);
  else tried.clear();
  failedKeys.clear();
  rounds = 0;
  setStatus({ ok: 0, failed: 0, errors: [], note: undefined });
  try {
    await engine().clearSummaries(onlyFailures);
  } catch {
    return; // the engine stopped: engine-status reports it
  }
  if (useStore.getState().transcript.status === 'ready') useStore.getState().runActions.requestRun();
}

/** Keep the API key for this tab (in memory only); an empty key forgets it. */
export function setApiKey(key: string): void {
  const k = key.trim();
  if ((k || null) === apiKey) return;
  apiKey = k || null;
  setStatus({ hasKey: apiKey !== null });
  // A new key may succeed where the old one failed; successful answers stay valid.
  void restart(true);
}

/** New endpoint, API kind or model for this tab (already saved by csp.saveEndpoint): answers start over. */
export function setEndpointSettings(s: EndpointSettings | null): void {
  setStatus({ settings: s });
  void restart(false);
}

/** Make the failed calls again (after the endpoint recovered). */
export function retryFailed(): void {
  void restart(true);
}

let started = false;

/** Follow the store's runs (called once by main.tsx). */
export function startSummarizerClient(): void {
  if (started) return;
  started = true;
  // A fresh engine has no answers: calls made for the stopped one may be made again.
  onEngineStopped(() => {
    tried.clear();
    failedKeys.clear();
    busy = false;
  });
  useStore.subscribe((s, prev) => {
    if (s.run.result !== prev.run.result) void onRunResult(s.run.result);
  });
}
