// The pairing validator's vocabulary (SPEC §5.1): the providers it knows, a violation as it reports one, and the
// context of a check. Shared by the validator and its per-provider rules (providers/), which import nothing else.
import type { Message } from '../model/transcript.ts';
import type { MessageIndex, RequestIndex } from '../model/units.ts';

/** Every provider the validator knows, in display order. */
export const PROVIDERS = ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'bedrock'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Every rule a violation may name (its stable id; a `pairing:<rule>` predicate names one, share/predicate.ts). */
export const PAIRING_RULES = [
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
] as const;
export type PairingRule = (typeof PAIRING_RULES)[number];

export function isPairingRule(s: string): s is PairingRule {
  return (PAIRING_RULES as readonly string[]).includes(s);
}

export type PairingViolation = {
  thread: string;
  request: RequestIndex;
  /** 'input' or the id of the pipeline stage whose output was validated. */
  stage: string;
  provider: Provider;
  /** Stable id, one of PAIRING_RULES. */
  rule: PairingRule;
  /** 'error': the provider would reject the request; 'warning': flagged, accepted. */
  severity: 'error' | 'warning';
  /** Index into the validated message list of the message the error names (the replay turns it into the
   *  thread's message index, i.e. the transcript row, and keeps the list position in `position`). */
  messageIndex: MessageIndex;
  /** Position in the validated list (set by the replay; the would-be request's own order). */
  position?: number;
  blockIndex?: number;
  /** The real `messages.N` (Gemini `contents`, Responses `input`) index in the would-be request. */
  wireIndex: number;
  toolUseId?: string;
  /** The provider's exact error text (Tierscope's own wording for warnings the provider has no text for). */
  error: string;
};

export type PairingContext = {
  thread: string;
  request: RequestIndex;
  stage: string;
  provider: Provider;
  /** The input of the stage, to detect modified thinking blocks (omit for the recorded input). */
  before?: readonly Message[];
  /** The caller knows no tool_use id repeats (the replay's working history counts them): the fast path
   *  then skips its duplicate check, which hashes every id of a long history. */
  uniqueUses?: boolean;
};
