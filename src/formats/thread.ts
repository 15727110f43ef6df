// Small shared builders for parsers: threads, message numbering, and the final Transcript, so every
// parser produces the same invariants (message.index == position, request indices 0-based per thread).
import { addCount } from '../lib/json.ts';
import type {
  FormatId,
  Message,
  ParseIssue,
  Thread,
  ThreadKind,
  Transcript,
  TranscriptMeta,
} from '../model/transcript.ts';

export function newThread(id: string, kind: ThreadKind, title?: string): Thread {
  const t: Thread = { id, kind, messages: [], requests: [], prefix: {} };
  if (title !== undefined) t.title = title;
  return t;
}

/** Append a message, assigning its index; returns the index. */
export function pushMessage(thread: Thread, message: Omit<Message, 'index'>): number {
  const index = thread.messages.length;
  thread.messages.push({ ...message, index } as Message);
  return index;
}

/** Renumber messages and requests after a parser reordered or filtered them. */
function renumber(thread: Thread): Thread {
  thread.messages.forEach((m, i) => {
    m.index = i;
  });
  thread.requests.forEach((r, i) => {
    r.index = i;
    r.thread = thread.id;
  });
  return thread;
}

/** Count of skipped line kinds, for `meta.skipped` (kinds come from the file: "constructor" is a kind too). */
export function bump(counter: Record<string, number>, kind: string): void {
  addCount(counter, kind);
}

export function makeTranscript(
  format: FormatId,
  meta: TranscriptMeta,
  threads: Thread[],
  parseIssues: ParseIssue[] = [],
): Transcript {
  // Main thread first, then sidechains, then side calls: a stable order the UI and CLI rely on.
  const order: Record<ThreadKind, number> = { main: 0, sidechain: 1, 'side-call': 2 };
  const sorted = threads.map((t, i) => ({ t, i })).sort((a, b) => order[a.t.kind] - order[b.t.kind] || a.i - b.i);
  return { format, meta, threads: sorted.map((x) => renumber(x.t)), parseIssues };
}
