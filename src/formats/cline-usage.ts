// Per-request usage of a Cline / Roo Code task folder, from `ui_messages.json`: each `say: "api_req_started"`
// entry's text is the request's ClineApiReqInfo `{request, tokensIn, tokensOut, cacheWrites, cacheReads, cost,
// cancelReason, streamingFailedMessage, apiProtocol?}`, written when its stream ends. What is included in what:
// - Cline 3.x and Roo Code before 2025-10-31: `tokensIn` is the input without the cached tokens — the three are
//   disjoint buckets (cline/cline apps/vscode/src/sdk/message-translator.ts: "Classic Cline/webview metrics
//   expect tokensIn, cacheReads, and cacheWrites to be disjoint buckets").
// - Roo Code since "Fix cost and token tracking between provider styles" (RooCodeInc/Roo-Code 416fa5727e,
//   2025-10-31): `tokensIn` is `costResult.totalInputTokens`, the whole prompt with cache reads and writes.
//   Such a file names its `apiProtocol`, and its `tokensIn` is never below reads + writes; an older file's
//   `tokensIn` (the uncached rest) falls below them as soon as the cache is warm. Both tests decide.
// Each entry also says where the history stood (`conversationHistoryIndex`: the last message before the request's
// user turn was appended, so the reply is two after it) and, when Cline was truncating, the range it left out
// (`conversationHistoryDeletedRange`: it kept the first two messages and dropped through the range's end).
import { arr, isObject, type JsonObject, num, str, toEpochMs, tryParseJson } from '../lib/json.ts';
import type { ObservedUsage } from '../model/transcript.ts';

export type ApiRequest = {
  usage?: ObservedUsage;
  /** The reply's index in api_conversation_history.json, when the entry says where the history stood. */
  replyAt?: number;
  deletedRange?: [number, number];
  time?: number;
  model?: string;
  cost?: number;
  cancelled?: string;
};

export type UsageRule = 'disjoint' | 'total';

type RawReq = { info: JsonObject; msg: JsonObject };

/** The ui messages' api_req_started entries, in order. */
function rawRequests(ui: unknown): RawReq[] {
  return (arr(ui) ?? []).flatMap((m) => {
    if (!isObject(m) || m.say !== 'api_req_started') return [];
    const parsed = tryParseJson(str(m.text) ?? '');
    return parsed.ok && isObject(parsed.value) ? [{ info: parsed.value, msg: m }] : [];
  });
}

/** Which rule the file's `tokensIn` follows (see above), from its own entries. */
export function usageRule(ui: unknown): UsageRule {
  const reqs = rawRequests(ui);
  const named = reqs.some((r) => typeof r.info.apiProtocol === 'string');
  const cached = reqs.filter((r) => (num(r.info.cacheReads) ?? 0) + (num(r.info.cacheWrites) ?? 0) > 0);
  const neverBelow = cached.every(
    (r) => (num(r.info.tokensIn) ?? 0) >= (num(r.info.cacheReads) ?? 0) + (num(r.info.cacheWrites) ?? 0),
  );
  return named && cached.length > 0 && neverBelow ? 'total' : 'disjoint';
}

/** The requests of a task's ui messages with their usage under `rule`. */
export function apiRequests(ui: unknown, rule: UsageRule): ApiRequest[] {
  return rawRequests(ui).map(({ info, msg }) => {
    const r: ApiRequest = {};
    const tokensIn = num(info.tokensIn);
    if (tokensIn !== undefined || num(info.tokensOut) !== undefined) {
      const read = num(info.cacheReads) ?? 0;
      const write = num(info.cacheWrites) ?? 0;
      const input = rule === 'total' ? Math.max(0, (tokensIn ?? 0) - read - write) : (tokensIn ?? 0);
      const usage = { input, cacheRead: read, cacheWrite: write, output: num(info.tokensOut) ?? 0 };
      if (usage.input + usage.cacheRead + usage.cacheWrite + usage.output > 0) r.usage = usage;
    }
    const at = num(msg.conversationHistoryIndex);
    if (at !== undefined) r.replyAt = at + 2;
    const range = arr(msg.conversationHistoryDeletedRange);
    if (range && range.length === 2 && typeof range[0] === 'number' && typeof range[1] === 'number')
      r.deletedRange = [range[0], range[1]];
    const time = toEpochMs(msg.ts);
    if (time !== undefined) r.time = time;
    const model = isObject(msg.modelInfo) ? (str(msg.modelInfo.modelId) ?? str(msg.modelInfo.id)) : undefined;
    if (model) r.model = model;
    const cost = num(info.cost);
    if (cost !== undefined) r.cost = cost;
    const cancelled = str(info.cancelReason) ?? str(info.streamingFailedMessage);
    if (cancelled) r.cancelled = cancelled;
    return r;
  });
}

/** Models of a task by time, from Cline's task_metadata.json `model_usage` (`{ts, model_id}` per switch). */
export function modelUsage(metadata: unknown): { time: number; model: string }[] {
  const list = isObject(metadata) ? arr(metadata.model_usage) : undefined;
  return (list ?? []).flatMap((u) => {
    const time = isObject(u) ? toEpochMs(u.ts) : undefined;
    const model = isObject(u) ? str(u.model_id) : undefined;
    return time !== undefined && model ? [{ time, model }] : [];
  });
}
