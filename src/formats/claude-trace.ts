// Parser for the claude-trace format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const claudeTraceParser: FormatParser = {
  id: 'claude-trace',
  label: 'claude-trace log',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the claude-trace parser is not implemented yet' });
    return makeTranscript('claude-trace', {}, []);
  },
};
