// Builders for small Claude Code session logs in tests: the JSONL envelope of each line kind (user, assistant
// with usage, tool_use / tool_result blocks), a JSONL joiner that also takes verbatim bad lines, and a loader.
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { SourceFile } from '../../src/formats/types.ts';
import type { Transcript } from '../../src/model/transcript.ts';

export type Obj = Record<string, unknown>;

export const SESSION = 'sess-1';
let clock = 0;
const ts = () => new Date(Date.UTC(2025, 8, 1, 0, 0, clock++)).toISOString();
export const envelope = (uuid: string, parent: string | null, extra: Obj = {}): Obj => ({
  parentUuid: parent,
  isSidechain: false,
  userType: 'external',
  cwd: '/tmp',
  sessionId: SESSION,
  version: '2.1.3',
  uuid,
  timestamp: ts(),
  ...extra,
});
export const user = (uuid: string, parent: string | null, content: unknown, extra: Obj = {}): Obj => ({
  ...envelope(uuid, parent, extra),
  type: 'user',
  message: { role: 'user', content },
});
export const usage = (output: number, input = 3, read = 1000, write = 10) => ({
  input_tokens: input,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
  output_tokens: output,
});
export const asst = (
  uuid: string,
  parent: string | null,
  id: string,
  blocks: unknown[],
  extra: Obj = {},
  out = 5,
): Obj => ({
  ...envelope(uuid, parent, extra),
  type: 'assistant',
  requestId: `req_${id}`,
  message: { id, type: 'message', role: 'assistant', model: 'claude-x', content: blocks, usage: usage(out) },
});
export const text = (t: string) => ({ type: 'text', text: t });
export const toolUse = (id: string, name = 'Read', input: unknown = { file_path: 'a.ts' }) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const result = (id: string, content: unknown = 'ok', isError = false) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

/** JSONL text: objects are serialized, strings are written verbatim (bad lines). */
export const jsonl = (...lines: (Obj | string)[]) =>
  `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

export function load(text: string, extra: SourceFile[] = [], auto = false): Transcript {
  const r = parseTranscript(fileFromText(`${SESSION}.jsonl`, text), extra, auto ? {} : { format: 'claude-code' });
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

/** A three-line session without timestamps — a prompt, one assistant tool call (`name`, `input`) and its result — the
 *  shape the redaction and hostile-input checks plant values in (the same text on every call). */
export function toolCallLines(o: {
  input: unknown;
  name?: string;
  prompt?: string;
  result?: string;
  sessionId?: string;
}): Obj[] {
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: '/w',
    sessionId: o.sessionId ?? 's-1',
    version: '2.0.14',
  };
  const call = { type: 'tool_use', id: 'toolu_1', name: o.name ?? 'mcp__bank__pay', input: o.input };
  return [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: o.prompt ?? 'go' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [call],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u3',
      parentUuid: 'u2',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: o.result ?? 'ok' }] },
    },
  ];
}

/** The first sessionId a Claude Code file's user or assistant lines name, read without the parser (tests that
 *  check which session a sub-agent file belongs to). */
export function firstSessionIdOf(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const o = JSON.parse(line) as { type?: string; sessionId?: string };
    if ((o.type === 'user' || o.type === 'assistant') && typeof o.sessionId === 'string') return o.sessionId;
  }
  return undefined;
}
