// The last run's notes of a window of the thread's messages, asked of the engine (EngineApi.notes) when the run,
// the thread or the window changes: the page never holds a run's tool-result and event rows whole. The last reply
// is kept until the next one lands, so rows do not blink on every slider step; `current` says whether it is this
// run's and this window's (the rows mark it when not, and tests wait for it).
import { useEffect, useState } from 'react';
import type { WindowNotes } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';

export type NotesWindow = { notes: WindowNotes | null; current: boolean };

/** Notes of messages [from, to) of `thread` in run `runId` (of just the messages `only` lists, when given: a
 *  search filter's rows); nothing is asked while `runId` is undefined or the window is empty. A reply for an older
 *  run (null: the engine has run again) is dropped: the page asks again when that run's result lands. */
export function useWindowNotes(
  runId: number | undefined,
  thread: string,
  from: number,
  to: number,
  only?: readonly number[],
): NotesWindow {
  const [notes, setNotes] = useState<WindowNotes | null>(null);
  const wanted = runId !== undefined && to > from;
  const onlyKey = only ? only.join(',') : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `onlyKey` names `only`
  useEffect(() => {
    if (!wanted || runId === undefined) return;
    let live = true;
    engine()
      .notes(runId, thread, from, to, only ? [...only] : undefined)
      .then(
        (w) => {
          if (live && w) setNotes(w);
        },
        () => {},
      );
    return () => {
      live = false;
    };
  }, [wanted, runId, thread, from, to, onlyKey]);
  const mine = notes && notes.thread === thread ? notes : null;
  const current =
    !wanted ||
    (mine !== null &&
      mine.runId === runId &&
      mine.from === from &&
      mine.to === to &&
      (mine.only ? mine.only.join(',') : null) === onlyKey);
  return { notes: mine, current };
}

/** Messages a window holds: the shown rows' range rounded out to blocks of `BLOCK`, so scrolling asks again only
 *  when it crosses a block. */
const BLOCK = 64;

/** Positions [from, to) of a filtered list's rows on screen, rounded out to blocks of `BLOCK` (at most `count`): a
 *  search filter's window is asked for by the rows' positions, so scrolling within a block asks nothing again. */
export function positionBlock(first: number, last: number, count: number): { from: number; to: number } {
  if (last < first) return { from: 0, to: 0 };
  return { from: Math.floor(first / BLOCK) * BLOCK, to: Math.min(count, Math.ceil((last + 1) / BLOCK) * BLOCK) };
}

export function blockWindow(first: number, last: number): { from: number; to: number } {
  if (last < first) return { from: 0, to: 0 };
  return { from: Math.floor(first / BLOCK) * BLOCK, to: Math.ceil((last + 1) / BLOCK) * BLOCK };
}
