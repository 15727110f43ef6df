// Parser for the anthropic-request format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const anthropicRequestParser: FormatParser = {
  id: 'anthropic-request',
  label: 'Anthropic Messages request',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the anthropic-request parser is not implemented yet' });
    return makeTranscript('anthropic-request', {}, []);
  },
};
