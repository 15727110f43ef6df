// Parser for the claude-code format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const claudeCodeParser: FormatParser = {
  id: 'claude-code',
  label: 'Claude Code session JSONL',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the claude-code parser is not implemented yet' });
    return makeTranscript('claude-code', {}, []);
  },
};
