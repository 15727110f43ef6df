// The pairing rules a `pairing:<rule>` predicate may name (predicate.ts). Apart from the predicate parser so the
// UI's predicate picker can list them without pulling the analyses (and the price catalog) into the page bundle.

export const PAIRING_RULES: readonly string[] = [
  'missing-result',
  'orphan-result',
  'results-not-first',
  'result-outside-user',
  'duplicate-id',
  'tool-message-without-call',
  'count-mismatch',
  'call-turn-order',
  'ends-with-model-turn',
  'thinking-modified',
  'summary-between-pair',
  'split-batch',
  'empty-error-result',
  'mixed-content-turn',
  'synthetic-result',
];
