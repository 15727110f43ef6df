// Parser for the swe-agent format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const sweAgentParser: FormatParser = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the swe-agent parser is not implemented yet' });
    return makeTranscript('swe-agent', {}, []);
  },
};
