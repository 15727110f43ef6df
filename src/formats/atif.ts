// Harbor's Agent Trajectory Interchange Format (`trajectory.json`, ATIF-v1.0 … v1.7; harbor docs/rfcs/
// 0001-trajectory-format.md): `{schema_version, session_id, agent {name, version, model_name}, steps[],
// final_metrics}`. A `system` step is the system prompt, a `user` step a prompt, an `agent` step one model turn: its
// message, `reasoning_content`, `tool_calls [{tool_call_id, function_name, arguments}]` and the `observation
// {results [{source_call_id, content}]}` that answered them — the next user turn the model saw. Usage per step
// (`metrics`): `prompt_tokens` is the whole prompt, `cached_tokens` the part of it read from the cache ("This is
// included in the prompt_tokens count"), `completion_tokens` includes reasoning; `metrics.extra` may add
// `cache_creation_input_tokens` (inside the prompt: prompt_tokens counts all input) and `reasoning_tokens`. A step
// with `llm_call_count` > 1 sums several calls: its usage is billed but is no one request's prompt, so it is kept
// apart. v1.6 messages and observation contents may be lists of parts (text, image with a path).
import { arr, display, isObject, type JsonObject, num, str, toEpochMs } from '../lib/json.ts';
import type { BilledResponse, Block, Message, ObservedUsage, Request, TranscriptMeta } from '../model/transcript.ts';
import { makeTranscript, newThread, pushMessage } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead } from './types.ts';

const isTrajectory = (d: unknown) =>
  isObject(d) && typeof d.schema_version === 'string' && d.schema_version.startsWith('ATIF') && Array.isArray(d.steps);

/** A message or observation content: a string, or a list of parts. */
function contentBlocks(v: unknown): Block[] {
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', text: v }];
  return (arr(v) ?? []).map((p): Block => {
    if (!isObject(p)) return { type: 'text', text: typeof p === 'string' ? p : display(p) };
    if (p.type === 'text') return { type: 'text', text: str(p.text) ?? '' };
    if (p.type === 'image') {
      const b: Block = { type: 'image', source: p.source };
      const mt = isObject(p.source) ? str(p.source.media_type) : undefined;
      if (mt) b.mediaType = mt;
      return b;
    }
    return { type: 'other', kind: str(p.type) ?? 'part', raw: p };
  });
}

function usageOf(m: JsonObject): { usage: ObservedUsage; reasoning?: number } | undefined {
  const prompt = num(m.prompt_tokens);
  const output = num(m.completion_tokens);
  if ((prompt ?? 0) + (output ?? 0) === 0) return undefined;
  const extra = isObject(m.extra) ? m.extra : {};
  const cached = Math.min(prompt ?? 0, num(m.cached_tokens) ?? 0);
  const written = Math.max(0, num(extra.cache_creation_input_tokens) ?? 0);
  // prompt_tokens counts every input token; a writer that left the creation out is told by it not fitting.
  let uncached = (prompt ?? 0) - cached - written;
  if (uncached < 0) uncached = (prompt ?? 0) - cached;
  const usage = { input: uncached, cacheRead: cached, cacheWrite: written, output: output ?? 0 };
  const reasoning = num(extra.reasoning_tokens) ?? num(extra.thoughts_tokens);
  return reasoning !== undefined ? { usage, reasoning } : { usage };
}

export const atifParser: FormatParser = {
  id: 'atif',
  label: 'Harbor ATIF trajectory',
  sniff: (head: SniffHead) => isTrajectory(head.doc),
  parse: (input: ParseInput, ctx: ParseContext) => {
    const doc = input.doc();
    const thread = newThread('main', 'main');
    const meta: TranscriptMeta = { fileName: input.main.name };
    if (!isTrajectory(doc)) {
      ctx.issue({
        line: 0,
        severity: 'error',
        message: 'not an ATIF trajectory (no schema_version "ATIF-…" and steps)',
      });
      return makeTranscript('atif', meta, []);
    }
    const d = doc as JsonObject;
    const agent = isObject(d.agent) ? d.agent : {};
    const defaultModel = str(agent.model_name);
    const billed: BilledResponse[] = [];
    const extra: Record<string, string | number> = { schemaVersion: d.schema_version as string };
    const name = str(agent.name);
    if (name) extra.agent = name;
    const version = str(agent.version);
    if (version) meta.version = version;
    const sid = str(d.session_id) ?? str(d.trajectory_id);
    if (sid) meta.sessionId = sid;
    let calls = 0;
    (arr(d.steps) ?? []).forEach((s, i) => {
      const path = `steps[${i}]`;
      if (!isObject(s)) {
        ctx.issue({ line: 0, severity: 'warning', message: `${path} is not an object; skipped` });
        return;
      }
      const time = toEpochMs(s.timestamp);
      const source = (uuid = str(s.step_id) ?? String(num(s.step_id) ?? i)) => ({
        line: 0,
        path,
        uuid,
        shape: 'native' as const,
      });
      const blocks = contentBlocks(s.message);
      if (s.source === 'system') {
        if (thread.messages.length === 0 && !thread.prefix.system) thread.prefix.system = blocks;
        else pushMessage(thread, { role: 'system', blocks, source: source(), ...(time !== undefined ? { time } : {}) });
        return;
      }
      if (s.source !== 'agent') {
        pushMessage(thread, { role: 'user', blocks, source: source(), ...(time !== undefined ? { time } : {}) });
        return;
      }
      const reasoning = str(s.reasoning_content);
      const uses: Block[] = (arr(s.tool_calls) ?? []).filter(isObject).map((c) => ({
        type: 'tool_use',
        id: str(c.tool_call_id) ?? '',
        name: str(c.function_name) ?? '',
        input: c.arguments ?? {},
      }));
      const assistant: Omit<Message, 'index'> = {
        role: 'assistant',
        blocks: [...(reasoning ? [{ type: 'thinking' as const, thinking: reasoning }] : []), ...blocks, ...uses],
        source: source(),
      };
      const model = str(s.model_name) ?? defaultModel;
      if (model) assistant.model = model;
      if (time !== undefined) assistant.time = time;
      const at = pushMessage(thread, assistant);
      const r: Request = { index: thread.requests.length, thread: 'main', inputEnd: at, responseEnd: at + 1 };
      if (time !== undefined) r.time = r.responseTime = time;
      if (model) r.model = model;
      const m = isObject(s.metrics) ? usageOf(s.metrics) : undefined;
      const many = (num(s.llm_call_count) ?? 1) > 1;
      if (m && many) {
        billed.push({
          why: 'no-request',
          usage: m.usage,
          line: 0,
          ...(time !== undefined ? { time } : {}),
          ...(model ? { model } : {}),
        });
        calls++;
      } else if (m) {
        r.observed = m.usage;
        if (m.reasoning !== undefined) r.reasoningOutput = m.reasoning;
      }
      thread.requests.push(r);
      const results = isObject(s.observation) ? (arr(s.observation.results) ?? []).filter(isObject) : [];
      if (results.length === 0) return;
      const answer: Block[] = results.map((x) => {
        const id = str(x.source_call_id);
        const content = contentBlocks(x.content);
        const text = content.length === 1 && content[0].type === 'text' ? content[0].text : undefined;
        if (!id) return content.length === 1 ? content[0] : { type: 'text', text: text ?? '' };
        return { type: 'tool_result', toolUseId: id, content: text ?? content, isError: false };
      });
      pushMessage(thread, {
        role: 'user',
        blocks: answer,
        source: source(`${source().uuid}#observation`),
        ...(time !== undefined ? { time } : {}),
      });
    });
    if (calls > 0) {
      thread.billedApart = billed;
      ctx.issue({
        line: 0,
        severity: 'info',
        message: `${calls} step(s) sum several model calls (llm_call_count > 1): their usage is billed but no one request's prompt, so it is kept apart`,
      });
    }
    meta.extra = extra;
    return makeTranscript('atif', meta, [thread]);
  },
};
