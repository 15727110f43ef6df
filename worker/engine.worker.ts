// The engine worker: exposes createEngine() over comlink with a pool of token-counting workers; the big
// replies (rows, run results) are kept here and fetched in parts (src/protocol/wire.ts), so the main thread
// parses them in several short tasks instead of one long one.
import { expose, transfer } from 'comlink';
import { HeldReplies, RUN_ARRAYS } from '../src/protocol/held-replies.ts';
import type { WireEngineApi } from './api.ts';
import { browserEndpoints } from './browser-pool.ts';
import { createEngine } from './create-engine.ts';
import { browserSqlite } from './sqlite-browser.ts';

// A worker loaded from a same-origin URL is not bound by the page's <meta> Content-Security-Policy (checked in
// Chromium), so the engine binds itself: it never needs the network, so fetch reaches this origin only and
// the other ways out are removed (SPEC §6: no request leaves the origin).
{
  const scope = self as unknown as Record<string, unknown>;
  const ownFetch = self.fetch.bind(self);
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
    if (url.origin !== self.location.origin)
      return Promise.reject(new TypeError(`the engine does not connect to ${url.origin}`));
    return ownFetch(input, init);
  };
  for (const k of ['XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport']) scope[k] = undefined;
}

const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
// One core stays with the page and the engine: on a 2-core machine two counting workers left the main thread
// about half a core, so a 50 ms frame took 100 ms of wall time while counting (SPEC §9's long-task limit).
const engine = createEngine({
  endpoints: () => browserEndpoints(Math.max(1, Math.min(4, cores - 1))),
  sqlite: browserSqlite,
});

const replies = new HeldReplies();

const wire: WireEngineApi = {
  ...engine,
  rows: async (thread, encoding) => replies.hold(await engine.rows(thread, encoding), []),
  run: async (runId, settings, onProgress) => replies.hold(await engine.run(runId, settings, onProgress), RUN_ARRAYS),
  part: async (id, k) => {
    const p = replies.part(id, k);
    return transfer(p, [p.bytes.buffer as ArrayBuffer]); // sent: its buffer is the page's now
  },
  drop: async (id) => replies.drop(id),
  hold: (name) =>
    new Promise<boolean>((held) => {
      if (!navigator.locks) return held(false);
      void navigator.locks.request(name, () => {
        held(true);
        return new Promise<never>(() => {});
      });
    }),
};

expose(wire);
