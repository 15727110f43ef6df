// Google Gemini generateContent pairing rules (SPEC §5.1, peers-and-bugs §3) with the API's own texts.
// A model turn with functionCall parts must come right after a user turn (a function response turn is a
// user turn) and be followed by a user turn with exactly as many functionResponse parts; responses match
// by count (and name), not by id, so only counts are checked. Some backends reject a trailing model turn.
import type { Message } from '../../model/transcript.ts';
import { type Draft, type ProviderCheck, usesIn } from './common.ts';
import type { WireUnit } from './wire.ts';

/** The API's texts (gemini-cli #11814, #4217, #16415; langchain #27799; CLIProxyAPI #5358). */
const geminiText = {
  callOrder:
    'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
  responseOrder: 'Please ensure that function response turn comes immediately after a function call turn.',
  count:
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
  endsWithModel: 'Requests ending with a model turn are not supported.',
};

/** Check a request laid out as Gemini `contents` (system hoisted to `systemInstruction`). */
export const checkGemini: ProviderCheck = (messages, units, report) => {
  for (let w = 0; w < units.length; w++) {
    const u = units[w];
    if (u.role !== 'model') {
      checkResponseTurn(messages, units, w, report);
      continue;
    }
    checkCallTurn(messages, units, w, report);
    if (w === units.length - 1)
      // A warning: the public API accepts a trailing model turn; some backends (Antigravity) do not.
      report({
        rule: 'ends-with-model-turn',
        severity: 'warning',
        messageIndex: u.msg,
        wireIndex: w,
        error: geminiText.endsWithModel,
      });
  }
};

function checkCallTurn(
  messages: readonly Message[],
  units: readonly WireUnit[],
  w: number,
  report: (v: Draft) => void,
): void {
  const u = units[w];
  const m = messages[u.msg];
  for (let j = u.from; j < u.to; j++) {
    const b = m.blocks[j];
    if (b.type === 'tool_result')
      report({
        rule: 'result-outside-user',
        severity: 'warning',
        messageIndex: u.msg,
        blockIndex: j,
        wireIndex: w,
        toolUseId: b.toolUseId,
        error: `contents.${w}: a tool_result in an assistant message becomes a functionResponse part of a model turn (flagged by Tierscope; the API's response is not documented).`,
      });
  }
  const { ids, blocks } = usesIn(m, u);
  if (ids.length === 0) return;
  const base = { messageIndex: u.msg, blockIndex: blocks[0], wireIndex: w, toolUseId: ids[0] } as const;
  const prev = units[w - 1];
  if (prev?.role !== 'user')
    report({ ...base, rule: 'call-turn-order', severity: 'error', error: geminiText.callOrder });
  // A function call turn followed by another model turn: no response turn at all. Gemini's text for this
  // exact case is not documented; the count text is the closest (0 responses for N calls), inferred.
  if (units[w + 1]?.role === 'model')
    report({ ...base, rule: 'missing-result', severity: 'error', error: geminiText.count });
}

function checkResponseTurn(
  messages: readonly Message[],
  units: readonly WireUnit[],
  w: number,
  report: (v: Draft) => void,
): void {
  const u = units[w];
  const m = messages[u.msg];
  const got: string[] = [];
  const at: number[] = [];
  for (let j = u.from; j < u.to; j++) {
    const b = m.blocks[j];
    if (b.type === 'tool_result') {
      got.push(b.toolUseId);
      at.push(j);
    }
  }
  const prev = units[w - 1];
  const calls = prev?.role === 'model' ? usesIn(messages[prev.msg], prev).ids : [];
  if (calls.length === 0) {
    got.forEach((id, i) => {
      report({
        rule: 'orphan-result',
        severity: 'error',
        messageIndex: u.msg,
        blockIndex: at[i],
        wireIndex: w,
        toolUseId: id,
        error: geminiText.responseOrder,
      });
    });
    return;
  }
  if (got.length === calls.length) return;
  // Name the first call without a response here, or else the first response without a call.
  const unanswered = calls.find((id) => !got.includes(id));
  const i = unanswered === undefined ? got.findIndex((id) => !calls.includes(id)) : -1;
  const v: Draft = {
    rule: 'count-mismatch',
    severity: 'error',
    messageIndex: u.msg,
    wireIndex: w,
    error: geminiText.count,
  };
  if (unanswered !== undefined) v.toolUseId = unanswered;
  else if (i >= 0) {
    v.toolUseId = got[i];
    v.blockIndex = at[i];
  }
  report(v);
}
