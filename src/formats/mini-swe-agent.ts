// mini-swe-agent trajectories (`*.traj.json`: `{info, messages, trajectory_format, instance_id}`), what most
// SWE-bench runs write now. `messages` are OpenAI chat messages: with function calling (1.1: `tool_calls` and
// `role: "tool"` results) or text actions (1.0: the command in a fenced block, its observation the next user
// message, made tool calls by swe-agent-actions.ts). Every assistant message keeps the provider's whole response
// in `extra.response` (a chat.completion with `usage`), so each model call's usage is observed; `extra.timestamp`
// (epoch seconds) dates it; `info.model_stats` (run cost, api_calls) and the config's model go to meta.
import { arr, isObject, type JsonObject, num, str } from '../lib/json.ts';
import type { Message, ParseIssue, Request, TranscriptMeta } from '../model/transcript.ts';
import { openaiMessages, openaiUsage } from './openai-messages.ts';
import { withTextActions } from './swe-agent-actions.ts';
import { makeTranscript, newThread } from './thread.ts';

/** A mini-swe-agent trajectory: `messages` of chat messages beside `info` or a `trajectory_format` naming it. */
export function isMiniTrajectory(d: unknown): d is JsonObject {
  if (!isObject(d)) return false;
  const messages = arr(d.messages);
  if (!messages?.some((m) => isObject(m) && typeof m.role === 'string')) return false;
  return /mini-swe-agent/i.test(str(d.trajectory_format) ?? '') || (isObject(d.info) && 'model_stats' in d.info);
}

/** A text action of mini-swe-agent 1.0: the one ```bash block of an assistant message without tool calls. */
function textAction(m: unknown): string | undefined {
  if (!isObject(m) || m.role !== 'assistant' || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)) return;
  const text = typeof m.content === 'string' ? m.content : '';
  return /```(?:bash|sh)?\s*\n([\s\S]*?)```/.exec(text)?.[1]?.trim() || undefined;
}

const extraOf = (m: unknown): JsonObject | undefined => (isObject(m) && isObject(m.extra) ? m.extra : undefined);

function modelOf(doc: JsonObject): string | undefined {
  const cfg = isObject(doc.info) && isObject(doc.info.config) ? doc.info.config : undefined;
  const model = cfg && isObject(cfg.model) ? cfg.model : undefined;
  return model ? (str(model.model_name) ?? str(model.name)) : undefined;
}

/** A trajectory's run facts for meta.extra (SWE-agent and mini-swe-agent): `info.model_stats` (run totals, as
 *  `model_stats.<key>`) and the named string fields that are set. */
export function runExtra(
  info: JsonObject,
  fields: readonly (readonly [string, string | undefined])[],
): Record<string, string | number | boolean> {
  const extra: Record<string, string | number | boolean> = {};
  const stats = isObject(info.model_stats) ? info.model_stats : {};
  for (const [k, v] of Object.entries(stats)) {
    const n = num(v);
    if (n !== undefined) extra[`model_stats.${k}`] = n;
  }
  for (const [k, v] of fields) if (v !== undefined) extra[k] = v;
  return extra;
}

function miniMeta(doc: JsonObject, model: string | undefined): TranscriptMeta {
  const info = isObject(doc.info) ? doc.info : {};
  const extra = runExtra(info, [
    ['exit_status', str(info.exit_status)],
    ['mini_version', str(info.mini_version)],
    ['trajectory_format', str(doc.trajectory_format)],
    ['model', model],
  ]);
  const meta: TranscriptMeta = { extra };
  const id = str(doc.instance_id);
  if (id !== undefined) meta.title = id;
  const version = str(info.mini_version);
  if (version !== undefined) meta.version = version;
  return meta;
}

/** The trajectory as one thread: a request per assistant message, its usage from `extra.response.usage`. */
export function parseMiniTrajectory(doc: JsonObject) {
  const issues: ParseIssue[] = [];
  // The harness's own closing record (`role: "exit"`, the submission) was never sent to the model.
  const exits = (arr(doc.messages) ?? []).filter((m) => isObject(m) && m.role === 'exit').length;
  const raw = (arr(doc.messages) ?? []).map((m) => (isObject(m) && m.role === 'exit' ? undefined : m));
  const items = raw.map((m) => {
    const action = textAction(m);
    return action !== undefined && isObject(m) ? { ...m, action, thought: m.content } : m;
  });
  const { items: rewritten, rewritten: marked } = withTextActions(items, new Set(['submit']));
  const model = modelOf(doc);
  const thread = newThread('main', 'main');
  const kept = rewritten.map((m, i) => [m, i] as const).filter(([m]) => m !== undefined);
  thread.messages = openaiMessages(
    kept.map(([m]) => m),
    {
      locate: (i) => ({ line: 0, path: `messages[${kept[i][1]}]` }),
      issue: (severity, message, i) =>
        issues.push({ line: 0, severity, message: `messages[${kept[i][1]}]: ${message}` }),
    },
  );
  let unpriced = 0;
  thread.messages.forEach((m: Message, k) => {
    const i = Number(/^messages\[(\d+)\]$/.exec(m.source.path ?? '')?.[1] ?? -1);
    if (marked.has(i)) m.source.shape = 'text-action';
    const extra = extraOf(raw[i]);
    const time = num(extra?.timestamp);
    if (time !== undefined) m.time = Math.round(time * 1000);
    if (m.role !== 'assistant') return;
    const response = extra && isObject(extra.response) ? extra.response : undefined;
    const r: Request = { index: thread.requests.length, thread: 'main', inputEnd: k, responseEnd: k + 1 };
    const rm = str(response?.model) ?? model;
    if (rm !== undefined) r.model = m.model = rm;
    const usage = openaiUsage(response?.usage);
    if (usage) r.observed = usage;
    else unpriced++;
    if (m.time !== undefined) r.time = r.responseTime = m.time;
    const id = str(response?.id);
    if (id !== undefined) r.requestId = id;
    thread.requests.push(r);
  });
  if (unpriced > 0)
    issues.push({
      line: 0,
      severity: 'info',
      message: `${unpriced} assistant message(s) carry no extra.response.usage: no observed usage for them`,
    });
  const meta = miniMeta(doc, model);
  if (exits > 0) meta.skipped = { 'message:exit': exits };
  return makeTranscript('swe-agent', meta, [thread], issues);
}
