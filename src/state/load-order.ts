// Which load owns the page. Every load (a file, paste, URL, share link, a followed session's growth) takes the next
// ticket as it starts; a reply that arrives after a newer load started is dropped (the engine drops that load too:
// worker/create-engine.ts). A load the app starts by itself — the start-up's sample, `?src=` — goes ahead only while
// no load started since it began, so what the user opened meanwhile is never replaced. `inFlight` (shown as
// `data-loads` on the load status) counts the loads not yet settled, dropped ones included.
import { create } from 'zustand';

let started = 0;

export const useLoadOrder = create<{ inFlight: number }>()(() => ({ inFlight: 0 }));

/** How many loads have started so far: taken before a load the app starts by itself, compared before it is sent. */
export function loadsSoFar(): number {
  return started;
}

/** A load starts: its ticket, and `settles` to wrap the engine's reply in (the load counts as in flight until it
 *  arrives, whether it is then shown, failed or dropped). */
export function beginLoad(): { ticket: number; settles: <T>(reply: Promise<T>) => Promise<T> } {
  const ticket = ++started;
  useLoadOrder.setState((s) => ({ inFlight: s.inFlight + 1 }));
  const done = () => useLoadOrder.setState((s) => ({ inFlight: s.inFlight - 1 }));
  return { ticket, settles: (reply) => reply.finally(done) };
}

/** Whether the load holding `ticket` is still the newest (its reply may be shown). */
export function isNewest(ticket: number): boolean {
  return ticket === started;
}

/** Something shown without a load (an input refused before it is read) outranks every load started before it. */
export function supersede(): void {
  started++;
}
