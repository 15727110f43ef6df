import type { FormatId } from '../model/transcript.ts';
import { anthropicRequestParser } from './anthropic-request.ts';
import { atifParser } from './atif.ts';
import { claudeCodeParser } from './claude-code.ts';
import { claudeTraceParser } from './claude-trace.ts';
import { clineParser } from './cline.ts';
import { codexParser } from './codex.ts';
import { geminiCliParser } from './gemini-cli.ts';
import { inspectParser } from './inspect.ts';
import { openaiChatParser } from './openai-chat.ts';
import { opencodeParser } from './opencode.ts';
import { otelGenaiParser } from './otel-genai.ts';
import { sweAgentParser } from './swe-agent.ts';
import { tierscopeParser } from './tierscope.ts';
import type { FormatParser } from './types.ts';

/** Detection order: most specific first (formats.md §0). */
export const PARSERS: readonly FormatParser[] = [
  tierscopeParser,
  claudeTraceParser,
  codexParser,
  claudeCodeParser,
  geminiCliParser,
  clineParser,
  atifParser,
  otelGenaiParser,
  opencodeParser,
  openaiChatParser,
  anthropicRequestParser,
  sweAgentParser,
  inspectParser,
];

export const FORMAT_IDS: readonly FormatId[] = PARSERS.map((p) => p.id);
