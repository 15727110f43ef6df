// The vocabulary of cache-break causes (SPEC §5.2): every cause a break may carry, as data, so each table keyed by
// a cause (the views' words for it) is a `Record` the compiler checks, and a new cause does not build without words.
import type { StageId } from '../pipeline/stage.ts';

/** Causes found from the recording (observed-cause.ts, cache-evidence.ts) or the replay (cache-timeline.ts). */
export const BREAK_CAUSES = [
  'sidechain',
  'model-changed',
  'ttl-expired',
  'agent-compaction',
  'tools-changed',
  'system-changed',
  'below-minimum',
  'not-served',
  'prefix-changed',
  'memory-file-edited',
  'date-changed',
  'lookback-exceeded',
  'older-entry',
  'same-entry',
  'reasoning-dropped',
  'unexplained',
] as const;
export type NamedCause = (typeof BREAK_CAUSES)[number];

/** A cause: a named one; the pipeline stage whose rewrite inside the cached prefix broke a simulated request; the
 *  recorded input rewriting message N; or the provider's own reason (`reported:<type>`, reported-cause.ts). */
export type BreakCause = NamedCause | StageId | `history-rewritten@${number}` | `reported:${string}`;
