// What text of each block is counted as tokens, in one place, so the heatmap, the pipeline and the
// CLI all agree. Images and documents have no text to count: their tokens come from media-tokens.ts.
import type { Block, Message, ToolDef } from '../model/transcript.ts';
import { isMedia, mediaTokens } from './media-tokens.ts';
import type { Tokenizer } from './tokenizer.ts';

/** The text of a block that is sent to the model (tool inputs as compact JSON). */
export function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'thinking':
      return b.thinking;
    case 'redacted_thinking':
      return b.data;
    case 'image':
      return '';
    case 'tool_use':
    case 'server_tool_use':
      return `${b.name} ${safeJson(b.input)}`;
    case 'tool_result':
      return typeof b.content === 'string' ? b.content : b.content.map(blockText).join('\n');
    case 'other':
      return safeJson(b.raw);
  }
}

/**
 * The text of a block that the tokenizer counts: its text (blockText), except what is no text to the model.
 * - Encrypted reasoning (`redacted_thinking`: Codex `encrypted_content`, Anthropic redacted thinking) is an opaque
 *   blob: the model reads the reasoning it stands for, whose size is the response's reasoning output (hidden.ts),
 *   never its base64. Counted as text it made a gpt-5.4 rollout's inputs grow by ~1,000 tokens per reasoning item
 *   (ship 0.114: 13% of requests within ±3%; counted as hidden output, 97%).
 * - Binary media (images, PDF documents) are counted by their own rules (media-tokens.ts), never as base64.
 */
export function countedText(b: Block): string {
  switch (b.type) {
    case 'redacted_thinking':
      return '';
    case 'tool_result':
      return typeof b.content === 'string' ? b.content : b.content.map(countedText).join('\n');
    case 'other':
      return isMedia(b) ? '' : blockText(b);
    default:
      return blockText(b);
  }
}

/** The result text of a tool_result (string content, or its text parts joined). */
export function resultText(b: Block): string {
  if (b.type !== 'tool_result') return blockText(b);
  return typeof b.content === 'string'
    ? b.content
    : b.content
        .filter((x) => x.type === 'text')
        .map((x) => (x.type === 'text' ? x.text : ''))
        .join('\n');
}

export function safeJson(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}

/** Tokens of one block: exact for text, plus the estimate of its images (image-tokens.ts). */
export function blockTokens(tok: Tokenizer, b: Block): number {
  return tok.count(countedText(b)) + mediaTokens(b);
}

export function messageTokens(tok: Tokenizer, m: Message): number {
  let n = 0;
  for (const b of m.blocks) n += blockTokens(tok, b);
  return n;
}

/** The text of a tool definition that is counted. */
export function toolDefText(t: ToolDef): string {
  return `${t.name} ${t.description ?? ''} ${t.inputSchema === undefined ? '' : safeJson(t.inputSchema)}`;
}

export function toolDefTokens(tok: Tokenizer, t: ToolDef): number {
  return tok.count(toolDefText(t));
}
