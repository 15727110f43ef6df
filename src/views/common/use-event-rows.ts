// Event rows of the current run by id (EngineApi.eventRows), for views that name a few events (the timeline's
// hover card and break strip): the run's event rows stay in the worker. Empty until the reply lands; a reply for a
// run the engine has moved past is dropped (the view asks again when that run's result lands).
import { useEffect, useState } from 'react';
import type { EventRow } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { useStore } from '../../state/store.ts';

const NONE: EventRow[] = [];

/** The rows of events `ids` of the page's current run, in the order of `ids` (ids the run lacks left out). */
export function useEventRows(ids: readonly number[]): EventRow[] {
  const runId = useStore((s) => s.run.result?.runId);
  const key = runId === undefined || ids.length === 0 ? null : `${runId}|${ids.join(',')}`;
  const [got, setGot] = useState<{ key: string; rows: EventRow[] } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the run and the ids
  useEffect(() => {
    if (key === null || runId === undefined) return;
    let live = true;
    engine()
      .eventRows(runId, [...ids])
      .then(
        (rows) => {
          if (live && rows) setGot({ key, rows: rows.filter((e): e is EventRow => e !== null) });
        },
        () => {},
      );
    return () => {
      live = false;
    };
  }, [key]);
  return got && got.key === key ? got.rows : NONE;
}
