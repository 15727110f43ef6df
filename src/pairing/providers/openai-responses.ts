// OpenAI Responses API pairing rules (SPEC §5.1, peers-and-bugs §3) with the API's own error texts.
// Every call and output is its own input item, matched by call_id: an output needs an earlier
// function_call, and every function_call needs an output later in the input. Items in between (messages,
// reasoning) are allowed, so only the order and the ids matter. Without `previous_response_id` (what a
// replayed request is) the whole history is in `input`.
import type { ToolResultBlock, ToolUseBlock } from '../../model/transcript.ts';
import { duplicateCallText, duplicateResultText, type ProviderCheck } from './common.ts';

/** The API's texts (`param: input`; openai-agents-python #673 / #1061, langchain #34282). Reasoning-item
 *  errors ("…provided without its required following item") are from memory and not checked here. */
const responsesText = {
  orphan: (id: string) => `No tool call found for function call output with call_id ${id}.`,
  missing: (id: string) => `No tool output found for function call ${id}.`,
};

/** Check a request laid out as Responses input items. */
export const checkOpenaiResponses: ProviderCheck = (messages, units, report) => {
  const calls = new Map<string, number>(); // call_id → wire index of its function_call
  const answered = new Set<string>();
  for (let w = 0; w < units.length; w++) {
    const u = units[w];
    const b = messages[u.msg].blocks[u.from];
    const base = { messageIndex: u.msg, blockIndex: u.from, wireIndex: w } as const;
    if (u.role === 'function_call') {
      const id = (b as ToolUseBlock).id;
      if (calls.has(id))
        report({
          ...base,
          rule: 'duplicate-id',
          severity: 'warning',
          toolUseId: id,
          error: duplicateCallText(`input.${w}`, id),
        });
      else calls.set(id, w);
    } else if (u.role === 'function_call_output') {
      const id = (b as ToolResultBlock).toolUseId;
      if (!calls.has(id))
        report({ ...base, rule: 'orphan-result', severity: 'error', toolUseId: id, error: responsesText.orphan(id) });
      else {
        if (answered.has(id))
          report({
            ...base,
            rule: 'duplicate-id',
            severity: 'warning',
            toolUseId: id,
            error: duplicateResultText(`input.${w}`, id),
          });
        answered.add(id);
      }
    }
  }
  for (const [id, w] of calls) {
    if (answered.has(id)) continue;
    const u = units[w];
    report({
      rule: 'missing-result',
      severity: 'error',
      messageIndex: u.msg,
      blockIndex: u.from,
      wireIndex: w,
      toolUseId: id,
      error: responsesText.missing(id),
    });
  }
};
