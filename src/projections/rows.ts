// The transcript list's rows: one small, plain record per message (role, tokens, tools, a one-line preview),
// made once per load and thread and sent to the UI, which never sees the transcript itself (SPEC §6).
import { indexToolCalls } from '../analyses/tool-index.ts';
import type { Block, Message, Role, Thread } from '../model/transcript.ts';
import { blockText, resultText } from '../tokens/block-text.ts';
import type { TokenMeter } from '../tokens/meter.ts';

/** One transcript row (a message) for the virtualized list: small, static per load. */
export type Row = {
  index: number;
  role: Role;
  tokens: number;
  /** False while exact counts are still being computed (tokens is then an estimate). */
  exact: boolean;
  /** Tool names of tool_use blocks (assistant) or of the tools whose results it carries (user). */
  tools: string[];
  /** tool_use ids of the results it carries (user) or of its calls (assistant). */
  toolUseIds: string[];
  blockTypes: string[];
  preview: string;
  isError: boolean;
  compaction?: 'summary' | 'boundary';
  meta?: boolean;
  time?: number;
  line: number;
  /** Request index this message is the response of (assistant), if any. */
  request?: number;
};

const PREVIEW = 160;

/** `t` with runs of white space as one space, trimmed — or, for a long `t`, a prefix of that over `need`
 *  characters: only a head of the text is read (a tool result can be megabytes; the preview shows 160 characters). */
function oneLineHead(t: string, need: number): string {
  for (let k = 4 * need; ; k *= 2) {
    const head = (k >= t.length ? t : t.slice(0, k)).replace(/\s+/g, ' ').trim();
    if (k >= t.length || head.length > need) return head;
  }
}

/** What a block shows in a preview: a tool call as `name(input…)`, an image as `[image]`, encrypted reasoning and a
 *  document by what they are (never their base64), else its text. */
export function previewText(b: Block): string {
  if (b.type === 'tool_use') return `${b.name}(${blockText(b).slice(b.name.length + 1, 120)})`;
  if (b.type === 'image') return '[image]';
  if (b.type === 'redacted_thinking') return '[encrypted reasoning]';
  if (b.type === 'other' && b.kind === 'document') return '[document]';
  return b.type === 'tool_result' ? resultText(b) : blockText(b);
}

/** The first ~160 characters of a message as one line: tool calls as `name(input…)`, images as `[image]`. */
export function previewOf(m: Message): string {
  const parts: string[] = [];
  let len = 0;
  for (const b of m.blocks) {
    const t = previewText(b);
    // A head over PREVIEW characters decides the preview as the whole text would (its first 160, and the `…`).
    parts.push(oneLineHead(t, PREVIEW));
    len += t.length;
    if (len > PREVIEW) break;
  }
  const s = parts.filter(Boolean).join(' · ');
  return s.length > PREVIEW ? `${s.slice(0, PREVIEW)}…` : s;
}

function previewFrom(m: Message, previews: WeakMap<Message, string> | undefined): string {
  let p = previews?.get(m);
  if (p === undefined) {
    p = previewOf(m);
    previews?.set(m, p);
  }
  return p;
}

/** The rows of a thread; token counts are the meter's exact ones where known, else its estimate. `previews`:
 *  message → its preview, kept by the caller (the run cache: a followed session's rows are read again on every
 *  growth, its unchanged messages being the same objects). */
export function messageRows(th: Thread, meter: TokenMeter, previews?: WeakMap<Message, string>): Row[] {
  const calls = indexToolCalls(th.messages);
  const responseOf = new Map<number, number>();
  for (const r of th.requests) if (r.responseEnd !== undefined) responseOf.set(r.inputEnd, r.index);
  return th.messages.map((m) => {
    const tools: string[] = [];
    const ids: string[] = [];
    let isError = false;
    for (const b of m.blocks) {
      if (b.type === 'tool_use') {
        tools.push(b.name);
        ids.push(b.id);
      } else if (b.type === 'tool_result') {
        tools.push(calls.get(b.toolUseId)?.name ?? 'unknown');
        ids.push(b.toolUseId);
        if (b.isError) isError = true;
      }
    }
    const peek = meter.peek(m);
    const row: Row = {
      index: m.index,
      role: m.role,
      tokens: peek.tokens,
      exact: peek.exact,
      tools,
      toolUseIds: ids,
      blockTypes: m.blocks.map((b) => b.type),
      preview: previewFrom(m, previews),
      isError,
      line: m.source.line,
    };
    if (m.compaction) row.compaction = m.compaction;
    if (m.meta) row.meta = true;
    if (m.time !== undefined) row.time = m.time;
    const req = responseOf.get(m.index);
    if (req !== undefined) row.request = req;
    return row;
  });
}
