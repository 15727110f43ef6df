// A pairing rule in words (the pairing panel, the share dialog's predicate picker): one table over the validator's
// vocabulary, so a rule it gains does not compile without its words.
import type { PairingRule } from '../../protocol/index.ts';

export const RULE_WORDS: Record<PairingRule, string> = {
  'missing-result': 'tool call without its result',
  'orphan-result': 'result without its tool call',
  'results-not-first': 'results not first in the message',
  'result-outside-user': 'result outside a user message',
  'duplicate-id': 'duplicate tool id',
  'tool-message-without-call': 'tool message without a call',
  'count-mismatch': 'result count differs from call count',
  'call-turn-order': 'call turn in the wrong place',
  'ends-with-model-turn': 'request ends with a model turn',
  'thinking-modified': 'thinking block modified',
  'summary-between-pair': 'summary between a call and its result',
  'split-batch': 'parallel batch split',
  'empty-error-result': 'empty error result',
  'mixed-content-turn': 'results mixed with other content',
  'synthetic-result': 'synthetic result',
};
