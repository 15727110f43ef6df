// Shown points in full, asked of the engine when a hover card or the break strip shows them (the run's reply
// carries only the drawn columns): by position in the run's timeline; an answer for an older ask is dropped.
import { useEffect, useState } from 'react';
import type { PointDetail } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';

type Got = { key: string; map: Map<number, PointDetail> };

/** Points `ks` of run `runId` with their rewrites' event rows; null until they arrive (or when the run is gone). */
export function usePoints(runId: number | undefined, ks: readonly number[]): Map<number, PointDetail> | null {
  const key = runId === undefined ? '' : `${runId}|${ks.join(',')}`;
  const [got, setGot] = useState<Got | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the run and the points
  useEffect(() => {
    if (runId === undefined || ks.length === 0) return;
    let live = true;
    Promise.all(ks.map((k) => engine().point(runId, k))).then(
      (list) => {
        if (!live || list.some((d) => d === null)) return;
        setGot({ key, map: new Map(list.map((d, i) => [ks[i], d as PointDetail])) });
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (ks.length === 0) return EMPTY;
  return got && got.key === key ? got.map : null;
}

const EMPTY = new Map<number, PointDetail>();
