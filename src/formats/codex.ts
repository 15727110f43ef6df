// Parser for the codex format: not implemented in this commit (sniff never matches, so detection skips it).
import { makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

export const codexParser: FormatParser = {
  id: 'codex',
  label: 'Codex CLI rollout',
  sniff: () => false,
  parse: (_input, ctx) => {
    ctx.issue({ line: 0, severity: 'error', message: 'the codex parser is not implemented yet' });
    return makeTranscript('codex', {}, []);
  },
};
