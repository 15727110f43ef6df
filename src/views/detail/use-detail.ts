// Fetches what the detail pane shows from the engine: the selected message's source and normalized
// JSON, the selected rewrite event's row and its before/after. Replies for an older selection are dropped.
import { useEffect, useState } from 'react';
import type { DiffResult, EventRow, MessageDetail } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';

type Loadable<T> = { key: string; value: T | null; error?: string } | null;

function useEngineValue<T>(key: string | null, fetch: () => Promise<T | null>): Loadable<T> {
  const [state, setState] = useState<Loadable<T>>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names everything fetch depends on
  useEffect(() => {
    if (key === null) {
      setState(null);
      return;
    }
    let live = true;
    fetch().then(
      (value) => live && setState({ key, value }),
      (e: unknown) => live && setState({ key, value: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state && state.key === key ? state : null;
}

/** The message's detail; `loadKey` changes with every load so a new file never shows stale source. */
export function useMessageDetail(thread: string, index: number | null, loadKey: string): Loadable<MessageDetail> {
  return useEngineValue(index === null ? null : `${loadKey}|${thread}|${index}`, () =>
    index === null ? Promise.resolve(null) : engine().detail(thread, index),
  );
}

/** Before/after of event `id` of run `runId` (event ids are per run). */
export function useEventDiff(id: number | null, runId: number | undefined): Loadable<DiffResult> {
  return useEngineValue(id === null || runId === undefined ? null : `${runId}|${id}`, () =>
    id === null ? Promise.resolve(null) : engine().diff(id),
  );
}

/** Event `id` of run `runId` as a row (null: the engine has run again, or no such event). */
export function useEventRow(id: number | null, runId: number | undefined): Loadable<EventRow> {
  return useEngineValue(id === null || runId === undefined ? null : `${runId}|${id}`, async () =>
    id === null || runId === undefined ? null : ((await engine().eventRows(runId, [id]))?.[0] ?? null),
  );
}
