// Parser for the openai-chat format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const openaiChatParser: FormatParser = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the openai-chat parser is not implemented yet' });
    return makeTranscript('openai-chat', {}, []);
  },
};
