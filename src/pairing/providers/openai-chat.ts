// OpenAI Chat Completions pairing rules (SPEC §5.1, peers-and-bugs §3) with the API's own error texts.
// An assistant message with `tool_calls` must be followed by one `role:"tool"` message per call before any
// other role; a tool message must answer a call of the assistant message its run of tool messages follows.
// The layout keeps system messages in place, so a system message between a call and its results breaks it.
import type { ToolResultBlock } from '../../model/transcript.ts';
import { duplicateResultText, idList, type ProviderCheck, reportReusedCalls, usesIn } from './common.ts';

/** The API's texts (seen in litellm #4931, semantic-kernel #12708, dapr-agents #145 and many clients).
 *  "preceeding" is the API's own spelling; the param of the first is `messages.[i].role`. */
const chatText = {
  toolWithoutCall:
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  missing: (ids: readonly string[]) =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${idList(ids)}`,
  notInCalls: (id: string) =>
    `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
};

/** Check a request laid out for Chat Completions (each tool_result is its own `tool` message). */
export const checkOpenaiChat: ProviderCheck = (messages, units, report) => {
  const seen = new Set<string>();
  let calls: Set<string> | undefined; // tool_call ids of the assistant message the current tool run follows
  let answered: Set<string> | undefined;
  for (let w = 0; w < units.length; w++) {
    const u = units[w];
    const m = messages[u.msg];
    if (u.role === 'tool') {
      const id = (m.blocks[u.from] as ToolResultBlock).toolUseId;
      const base = { messageIndex: u.msg, blockIndex: u.from, wireIndex: w, toolUseId: id } as const;
      if (!calls)
        report({ ...base, rule: 'tool-message-without-call', severity: 'error', error: chatText.toolWithoutCall });
      else if (!calls.has(id))
        report({ ...base, rule: 'orphan-result', severity: 'error', error: chatText.notInCalls(id) });
      else if (answered?.has(id))
        report({ ...base, rule: 'duplicate-id', severity: 'warning', error: duplicateResultText(`messages.${w}`, id) });
      answered?.add(id);
      continue;
    }
    calls = undefined;
    answered = undefined;
    if (u.role !== 'assistant') continue;
    const { ids, blocks } = usesIn(m, u);
    if (ids.length === 0) continue;
    reportReusedCalls({ ids, blocks }, seen, u.msg, w, report);
    calls = new Set(ids);
    answered = new Set();
    const got = new Set<string>();
    for (let k = w + 1; k < units.length && units[k].role === 'tool'; k++) {
      const t = units[k];
      got.add((messages[t.msg].blocks[t.from] as ToolResultBlock).toolUseId);
    }
    const missing = ids.filter((id) => !got.has(id));
    if (missing.length === 0) continue;
    const error = chatText.missing(missing);
    ids.forEach((id, i) => {
      if (got.has(id)) return;
      report({
        rule: 'missing-result',
        severity: 'error',
        messageIndex: u.msg,
        blockIndex: blocks[i],
        wireIndex: w,
        toolUseId: id,
        error,
      });
    });
  }
};
