// Gemini content for the Gemini CLI parser: a `PartListUnion` (a string, a part, or a list of parts: text, thought
// text, functionCall, functionResponse, inlineData…) into blocks, and a reply's `tokens` into observed usage. The
// usage rules, from gemini-cli packages/core/src/services/chatRecordingTypes.ts (TokensSummary mirrors the API's
// usageMetadata) and the real sessions in test/fixtures/gemini-cli: `input` = promptTokenCount, which includes
// `cached` (cachedContentTokenCount); `output` = candidatesTokenCount, which excludes `thoughts`
// (thoughtsTokenCount, billed as output); `tool` = toolUsePromptTokenCount, prompt tokens of built-in tool use, billed
// as input and outside `input`; `total` = input + output + thoughts + tool (8,756 + 30 + 177 + 0 = 8,963 in
// control_pro.json). Implicit caching has no write fee, so there is never a cache write.
import { arr, isObject, type JsonObject, num, str } from '../lib/json.ts';
import type { Block, ObservedUsage } from '../model/transcript.ts';

/** The text a functionResponse carried to the model: its `output` (or `error`) string, else its JSON. */
function responseText(response: unknown): { text: string; isError: boolean } {
  if (isObject(response)) {
    const out = str(response.output);
    if (out !== undefined) return { text: out, isError: false };
    const err = str(response.error);
    if (err !== undefined) return { text: err, isError: true };
  }
  if (typeof response === 'string') return { text: response, isError: false };
  return { text: JSON.stringify(response ?? null) ?? '', isError: false };
}

/** One functionResponse part as a tool_result block (its `id`, else its name, answers the call). */
export function functionResponseBlock(fr: JsonObject): Block {
  const { text, isError } = responseText(fr.response);
  return { type: 'tool_result', toolUseId: str(fr.id) ?? str(fr.name) ?? '', content: text, isError };
}

/** One Gemini part as a block; parts the model sees as something else are kept as `other`. */
function partBlock(part: unknown): Block {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (!isObject(part)) return { type: 'other', kind: typeof part, raw: part };
  const text = str(part.text);
  if (text !== undefined) return part.thought === true ? { type: 'thinking', thinking: text } : { type: 'text', text };
  if (isObject(part.functionCall)) {
    const fc = part.functionCall;
    return { type: 'tool_use', id: str(fc.id) ?? str(fc.name) ?? '', name: str(fc.name) ?? '', input: fc.args ?? {} };
  }
  if (isObject(part.functionResponse)) return functionResponseBlock(part.functionResponse);
  if (isObject(part.inlineData)) {
    const b: Block = { type: 'image', source: part.inlineData };
    const mt = str(part.inlineData.mimeType);
    if (mt) b.mediaType = mt;
    return b;
  }
  const kind = Object.keys(part)[0] ?? 'unknown';
  return { type: 'other', kind, raw: part };
}

/** A `PartListUnion` as blocks: a string is one text block (none when empty), a list each of its parts. */
export function geminiBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (content === undefined || content === null) return [];
  const list = arr(content) ?? [content];
  return list.map(partBlock);
}

/** The functionResponse parts of a content (a tool response sent as a user turn). */
export function functionResponses(content: unknown): JsonObject[] {
  const list = arr(content) ?? [];
  return list.flatMap((p) => (isObject(p) && isObject(p.functionResponse) ? [p.functionResponse] : []));
}

/** A reply's `tokens` as observed usage and its reasoning tokens; undefined when it counts nothing (the CLI
 *  writes all-zero tokens on a reply whose usage never arrived). */
export function geminiUsage(tokens: unknown): { usage: ObservedUsage; reasoning: number } | undefined {
  if (!isObject(tokens)) return undefined;
  const input = num(tokens.input) ?? 0;
  const output = num(tokens.output) ?? 0;
  const thoughts = num(tokens.thoughts) ?? 0;
  const tool = num(tokens.tool) ?? 0;
  if (input + output + thoughts + tool === 0) return undefined;
  const cached = Math.min(input, num(tokens.cached) ?? 0);
  return {
    usage: { input: input - cached + tool, cacheRead: cached, cacheWrite: 0, output: output + thoughts },
    reasoning: thoughts,
  };
}
