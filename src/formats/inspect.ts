// Parser for the inspect format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const inspectParser: FormatParser = {
  id: 'inspect',
  label: 'Inspect AI eval log',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the inspect parser is not implemented yet' });
    return makeTranscript('inspect', {}, []);
  },
};
