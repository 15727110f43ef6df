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
//
// A share link or share file that brings `summarizer: http` is someone else's choice: no call is made for it
// until the user says yes (`needs-consent`), since the calls would send the link's text to the user's endpoint
// with the user's key, as many times as the link's attempt budget allows (issue 19, item 8).
import { create } from 'zustand';
import type { HttpCall, ModelProbeCall, RunResult, SummaryAnswer, SummaryOutcome } from '../protocol/index.ts';
import { MODEL_PROBE_SYSTEM } from '../protocol/index.ts';
import { type ApiKind, allowedOrigin, type EndpointSettings, endpointOrigin, storedEndpoint } from './csp.ts';
import { callEndpoint } from './endpoint-call.ts';
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
/** Re-runs in a row driven by new answers before the loop stops and says so. */
const MAX_ROUNDS = 30;

export type SummarizerPhase =
  | 'off'
  | 'needs-consent'
  | 'needs-endpoint'
  | 'needs-reload'
  | 'needs-key'
  | 'calling'
  | 'done'
  | 'stopped';

/** What a share link or file asks of the summarizer, shown before any call is made for it. */
type ConsentRequest = {
  /** `share link` or the share file's name. */
  source: string;
  attemptsPerPass: number;
  /** The endpoint the calls would go to (this tab's), or null when none is set yet. */
  endpoint: string | null;
};

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
  /** Set while a loaded link's or share file's `http` summarizer waits for the user's yes. */
  consent: ConsentRequest | null;
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
  consent: null,
}));

let apiKey: string | null = null;
let busy = false;
let rounds = 0;
let lastSettings = '';
const tried = new Set<string>();
const failedKeys = new Set<string>();
/** The load (its summary object) whose link-chosen http summarizer waits for consent; null when none does. */
let awaitingConsent: object | null = null;

/** Whether settings restored from somewhere else turn on a summarizer that calls out (pure). */
export function needsConsent(
  from: { kind: 'link' | 'share-file' | 'sample' } | null,
  summarizer: string,
): from is { kind: 'link' | 'share-file' } {
  return from !== null && (from.kind === 'link' || from.kind === 'share-file') && summarizer === 'http';
}

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
      const out = await callEndpoint(s, key, { prompt: call.prompt, system: SYSTEM, maxTokens: MAX_TOKENS[call.kind] });
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
  if (awaitingConsent !== null && awaitingConsent === useStore.getState().transcript.summary) {
    setStatus({ phase: 'needs-consent' });
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

/** Why model probes cannot be asked now (the endpoint, the page's policy or the key is missing), or null. */
export function modelProbesBlocked(): SummarizerPhase | null {
  return readiness();
}

/**
 * Ask the compaction view's model probes (issue 17) with this tab's endpoint and key — only when the user presses
 * Ask after consenting; a failed call is an answer with its error (key scrubbed).
 */
export async function askModelProbes(calls: readonly ModelProbeCall[]): Promise<SummaryAnswer[]> {
  const s = useSummarizer.getState().settings;
  const key = apiKey;
  if (readiness() !== null || !s || !key) throw new Error('the summarizer endpoint and key are not set');
  return Promise.all(
    calls.map(async (c) => {
      const out = await callEndpoint(s, key, { prompt: c.prompt, system: MODEL_PROBE_SYSTEM, maxTokens: 600 });
      const outcome: SummaryOutcome = out.ok ? out : { ok: false, error: scrub(out.error) };
      return { key: c.key, outcome };
    }),
  );
}

/** The user said yes to the link's http summarizer: calls may be made for this load. */
export function allowLinkSummarizer(): void {
  awaitingConsent = null;
  setStatus({ consent: null });
  void onRunResult(useStore.getState().run.result);
}

/** The user said no: this load runs with the local extractive summarizer instead; nothing is called. */
export function declineLinkSummarizer(): void {
  awaitingConsent = null;
  setStatus({ consent: null });
  useStore.getState().configActions.setKey('summarizer', 'extractive');
}

/** A new load: ask first when its settings came from a link or share file and turn on `http`. */
function onLoaded(summary: object | undefined): void {
  const { from, config } = useStore.getState().config;
  if (summary && needsConsent(from, config.summarizer)) {
    awaitingConsent = summary;
    setStatus({
      phase: 'needs-consent',
      consent: {
        source: from.name,
        attemptsPerPass: config.summaryAttemptsPerPass,
        endpoint: useSummarizer.getState().settings?.endpoint ?? null,
      },
    });
    return;
  }
  awaitingConsent = null;
  if (useSummarizer.getState().consent) setStatus({ consent: null });
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
    if (s.transcript.summary !== prev.transcript.summary) onLoaded(s.transcript.summary);
    if (s.run.result !== prev.run.result) void onRunResult(s.run.result);
  });
}
