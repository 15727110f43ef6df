// The stages of SPEC §4 in their fixed order: cheap and lossless first, lossy and costly last.
import type { PipelineStage } from '../stage.ts';
import { hardcapStage } from './hardcap.ts';
import { microcompactStage } from './microcompact.ts';
import { observationsStage } from './observations.ts';
import { spillStage } from './spill.ts';
import { summarizeStage } from './summarize.ts';
import { tiersStage } from './tiers.ts';

export { hardcapStage, microcompactStage, observationsStage, spillStage, summarizeStage, tiersStage };

export const STAGES = [
  observationsStage,
  spillStage,
  tiersStage,
  microcompactStage,
  summarizeStage,
  hardcapStage,
] as const;

export type AnyStage = PipelineStage<unknown>;
