// Replays a Gemini CLI chat log the way the CLI itself loads it (gemini-cli packages/core/src/services/
// chatRecordingService.ts, loadConversationRecord): a header line (sessionId, projectHash…), message records kept
// in a map by `id` (a message written again with the same id replaces the record in place, its position kept: the
// CLI re-appends a reply when its tokens or tool calls arrive), `{"$set": …}` patches of the metadata — or of the
// whole message list (`$set.messages`: the CLI's `updateMessagesFromHistory`, on start, after an aborted turn and
// when compression rewrites the history) — and `{"$rewindTo": id}`, which drops that message and all after it.
// The older `.json` file is one such record holding `messages`. What the replay keeps: every message in the order
// it first appeared with its latest record, the ones a rewind dropped, and for each reply the list it was sent
// after (shared arrays: one per stretch of appends, so a long log stays linear).
import { arr, isObject, type JsonObject } from '../lib/json.ts';
import type { LineNumber } from '../model/units.ts';
import { bump } from './thread.ts';

/** `lines`: every line the message's record was written or updated on, when more than one. */
export type GeminiRecord = { id: string; rec: JsonObject; line: LineNumber; path?: string; lines?: LineNumber[] };

/** The messages a reply was sent after: the first `len` ids of `list`. */
type Snapshot = { list: string[]; len: number };

export type GeminiLog = {
  header: JsonObject;
  /** Every message id, in the order it first appeared, with its latest record. */
  messages: Map<string, GeminiRecord>;
  /** Ids a rewind (or a `$set` that kept only a prefix) dropped and the log never wrote again. */
  dropped: Set<string>;
  /** Ids first written by a `$set.messages` that rewrote the history (a compression's summary turns). */
  rewrittenIn: Set<string>;
  /** For each reply: the list it was sent after, and whether that list is the first-appearance order minus the
   *  dropped ids (true until a rewrite). */
  inputs: Map<string, { snapshot: Snapshot; aligned: boolean; afterRewrite: boolean }>;
  skipped: Record<string, number>;
  /** Lines that are none of the record kinds (line numbers, first few). */
  unknown: LineNumber[];
  rewinds: number;
  /** Rewinds to an id the list did not hold (ignored). */
  unknownRewinds: number;
  rewrites: number;
};

function newGeminiLog(): GeminiLog {
  return {
    header: {},
    messages: new Map(),
    dropped: new Set(),
    rewrittenIn: new Set(),
    inputs: new Map(),
    skipped: {},
    unknown: [],
    rewinds: 0,
    unknownRewinds: 0,
    rewrites: 0,
  };
}

/** A message record: a string `id` (the CLI's own test, isMessageRecord). */
const isMessage = (v: JsonObject) => typeof v.id === 'string';

/** Reads records in file order into a GeminiLog. */
export class GeminiReplay {
  readonly log = newGeminiLog();
  /** The CLI's current message list; a new array after each rewind or rewrite, only appended to in between. */
  private order: string[] = [];
  /** The ids of `order`. */
  private current = new Set<string>();
  private aligned = true;
  private rewritten = false;

  record(v: unknown, line: LineNumber, path?: string): void {
    if (!isObject(v)) {
      bump(this.log.skipped, 'not-an-object');
      return;
    }
    if (typeof v.$rewindTo === 'string') this.rewind(v.$rewindTo);
    else if (isObject(v.$set)) this.set(v.$set, line);
    else if (v.type === 'message_update' && typeof v.id === 'string') this.update(v.id, v, line);
    else if (isMessage(v)) this.message(v.id as string, v, line, path);
    else if (typeof v.sessionId === 'string') this.headerRecord(v, line);
    else if (this.log.unknown.length < 5) this.log.unknown.push(line);
    else bump(this.log.skipped, 'unknown-line');
  }

  private headerRecord(v: JsonObject, line: LineNumber): void {
    const { messages, ...meta } = v;
    Object.assign(this.log.header, meta);
    // The legacy `.json` file (and a one-line legacy record) holds the messages itself.
    (arr(messages) ?? []).forEach((m, i) => {
      if (isObject(m) && isMessage(m)) this.message(m.id as string, m, line, `messages[${i}]`);
      else bump(this.log.skipped, 'message-without-id');
    });
  }

  private message(id: string, rec: JsonObject, line: LineNumber, path?: string): void {
    const known = this.log.messages.get(id);
    const entry: GeminiRecord = { id, rec, line };
    if (path !== undefined) entry.path = path;
    if (known && this.current.has(id)) {
      // Written again: the latest record wins, the first position stays (a Map's set).
      this.log.messages.set(id, {
        ...entry,
        rec: { ...known.rec, ...rec },
        lines: [...(known.lines ?? [known.line]), line],
      });
      return;
    }
    if (known) {
      // A dropped message written anew: its first position no longer says where it was sent.
      this.log.dropped.delete(id);
      this.aligned = false;
    }
    this.log.messages.set(id, entry);
    if (rec.type === 'gemini' && !this.log.inputs.has(id))
      this.log.inputs.set(id, {
        snapshot: { list: this.order, len: this.order.length },
        aligned: this.aligned,
        afterRewrite: this.rewritten,
      });
    this.order.push(id);
    this.current.add(id);
  }

  private update(id: string, v: JsonObject, line: LineNumber): void {
    const known = this.log.messages.get(id);
    if (!known) return;
    const { type: _t, id: _i, ...fields } = v;
    const lines = [...(known.lines ?? [known.line]), line];
    this.log.messages.set(id, { ...known, rec: { ...known.rec, ...fields }, lines });
  }

  private rewind(id: string): void {
    this.log.rewinds++;
    const at = this.order.indexOf(id);
    // The CLI writes a rewind only to a message it holds (rewindTo returns early otherwise), so an unknown id is a
    // damaged file: ignored, not read as "drop everything" as the CLI's loader would.
    if (at < 0) {
      this.log.unknownRewinds++;
      return;
    }
    this.keep(at);
  }

  /** Keep the first `n` ids of the list; the rest are dropped. */
  private keep(n: number): void {
    for (const gone of this.order.slice(n)) {
      this.log.dropped.add(gone);
      this.current.delete(gone);
    }
    this.order = this.order.slice(0, n);
  }

  private set(patch: JsonObject, line: LineNumber): void {
    const { messages, ...meta } = patch;
    Object.assign(this.log.header, meta);
    const list = arr(messages);
    if (!list) return;
    const items = list.flatMap((m, i) => (isObject(m) && isMessage(m) ? [{ id: m.id as string, m, i }] : []));
    const ids = items.map((x) => x.id);
    const extends_ = this.order.length <= ids.length && this.order.every((id, i) => ids[i] === id);
    const prefix = ids.length <= this.order.length && ids.every((id, i) => this.order[i] === id);
    if (extends_ || prefix) {
      // The list as it was (a sync on start), grown by new turns, or a prefix of it (a turn rolled back).
      for (const { id, m, i } of items) this.message(id, m, line, `$set.messages[${i}]`);
      if (prefix) this.keep(ids.length);
      return;
    }
    this.log.rewrites++;
    for (const { id, m, i } of items) {
      const known = this.log.messages.get(id);
      if (known) this.log.messages.set(id, { ...known, rec: { ...known.rec, ...m } });
      else {
        this.log.messages.set(id, { id, rec: m, line, path: `$set.messages[${i}]` });
        this.log.rewrittenIn.add(id);
      }
    }
    this.order = ids;
    this.current = new Set(ids);
    this.aligned = false;
    this.rewritten = true;
  }
}
