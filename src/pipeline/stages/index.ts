// The stages of SPEC §4 in their fixed order: cheap and lossless first, lossy and costly last.
import { type HardcapState, hardcapStage } from './hardcap.ts';
import { type MicrocompactState, microcompactStage } from './microcompact.ts';
import { type ObservationsState, observationsStage } from './observations.ts';
import { type SpillState, spillStage } from './spill.ts';
import { type SummarizeState, summarizeStage } from './summarize.ts';
import { type TiersState, tiersStage } from './tiers.ts';

export const STAGES = [
  observationsStage,
  spillStage,
  tiersStage,
  microcompactStage,
  summarizeStage,
  hardcapStage,
] as const;

/** Each stage's state, by stage id: what a thread's replay ends with (pipeline/fates.ts reads it). */
export type StageStates = {
  observations: ObservationsState;
  spill: SpillState;
  tiers: TiersState;
  microcompact: MicrocompactState;
  summarize: SummarizeState;
  hardcap: HardcapState;
};

/** The states the replay carries in STAGES order, by id (the one place their types meet the list). */
export function stageStates(list: readonly unknown[]): StageStates {
  const out: Record<string, unknown> = {};
  STAGES.forEach((s, i) => {
    out[s.id] = list[i];
  });
  return out as StageStates;
}
