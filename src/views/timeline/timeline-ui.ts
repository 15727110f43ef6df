// View-local state the timeline shares with the breaks table and the detail pane: the break last picked (so the
// table, the markers and the detail agree on it), the scope, and which requests are in view when zoomed (the
// table lists only those). Picking a break selects its request and the message where its cached prefix ended.
import { create } from 'zustand';
import { useStore } from '../../state/store.ts';
import type { BreakMark, BreakSource, Scope } from './timeline-model.ts';

/** A break picked anywhere: its source, thread and request. */
export type PickedBreak = { source: BreakSource; thread: string; request: number };

/** The requests the zoomed timeline shows, for the views that follow it; null when it shows every request. */
type InView = { label: string; has: (thread: string, request: number) => boolean; thread: string | null };

type TimelineUi = {
  picked: PickedBreak | null;
  scope: Scope;
  inView: InView | null;
  setScope: (s: Scope) => void;
  setInView: (v: InView | null) => void;
  setPicked: (b: PickedBreak | null) => void;
};

export const useTimelineUi = create<TimelineUi>()((set) => ({
  picked: null,
  scope: 'thread',
  inView: null,
  setScope: (scope) => set({ scope }),
  setInView: (inView) => set({ inView }),
  setPicked: (picked) => set({ picked }),
}));

export function pickedKey(b: PickedBreak | null): string | null {
  return b ? `${b.source}\u0000${b.thread}\u0000${b.request}` : null;
}

/** Select a break: its thread, its request, and the message where its cached prefix ended (observed: the
 *  divergence point; simulated: the first rewrite inside the old prefix), else the request's response. */
export function pickBreak(b: PickedBreak & { messageIndex: number | null; responseMessage: number }): void {
  const { view, viewActions } = useStore.getState();
  if (b.thread !== view.thread) viewActions.setThread(b.thread);
  viewActions.selectRequest(b.request);
  viewActions.selectMessage(b.messageIndex ?? b.responseMessage, true);
  useTimelineUi.getState().setPicked({ source: b.source, thread: b.thread, request: b.request });
}

/** Select a break drawn on the timeline (a marker, a chip). */
export function pickMark(b: BreakMark): void {
  pickBreak({
    source: b.source,
    thread: b.point.thread,
    request: b.point.index,
    messageIndex: b.messageIndex,
    responseMessage: b.point.responseMessage,
  });
}
