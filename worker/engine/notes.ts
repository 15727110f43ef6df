// The engine's notes methods: what the last run did to the messages the page shows, asked for by window (the
// transcript's rows on screen, the detail's message), event rows by id (the timeline's hover and break strip) and
// an event followed to the last run (the detail's selection). Each answers null when `runId` is not the last run:
// the page's reply for it is on its way, and the page asks again when it lands.
import type { EngineApi } from '../api.ts';
import type { EngineState } from './state.ts';

type NotesMethods = Pick<EngineApi, 'notes' | 'eventRows' | 'findEvent'>;

export function createNotesMethods(s: EngineState): NotesMethods {
  const last = (runId: number) => (s.last && s.last.runId === runId ? s.last : undefined);
  return {
    async notes(runId, thread, from, to, only) {
      return last(runId)?.notes.window(runId, thread, Math.max(0, from), to, only) ?? null;
    },
    async eventRows(runId, ids) {
      const run = last(runId);
      return run ? ids.map((id) => run.notes.event(id) ?? null) : null;
    },
    async findEvent(runId, like) {
      const run = last(runId);
      return run ? { id: run.notes.findEvent(like) } : null;
    },
  };
}
