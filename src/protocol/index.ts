// The UI's one door into the core (test/architecture/layers.test.ts): src/state and src/views import nothing
// outside themselves but this folder. It names the engine protocol's types (engine-api.ts) and the few pure values
// the page shares with the engine: vocabularies (providers, encodings, presets, pairing rules, break causes),
// limits, the config schema, the view and share-link text, formatters. Each value comes from a module that pulls
// nothing heavy in (no parser, tokenizer, validator or price catalog); the layers test checks that transitively.

export type { CompactionRow } from '../analyses/audit.ts';
export type { BreakCause, NamedCause } from '../analyses/break-causes.ts';
export type { CacheFindings, CachePattern } from '../analyses/cache-patterns.ts';
export type { CostReport, CostTotals, ModelCost } from '../analyses/cost.ts';
export type { IdleAction, IdleReason } from '../analyses/idle-reason.ts';
export type { ModelProbeCall, ModelProbeResult } from '../analyses/model-probes.ts';
export { MODEL_PROBE_SYSTEM } from '../analyses/model-probes.ts';
export type { ProbeItem, ProbeKind, Probes } from '../analyses/probes.ts';
export { PROBE_KINDS, PROBE_TYPES } from '../analyses/probes.ts';
export type { Refetch } from '../analyses/refetch.ts';
export type { ToolResultRow } from '../analyses/report.ts';
export type { LogDefaults } from '../analyses/settings-origin.ts';
export { withLogDefaults } from '../analyses/settings-origin.ts';
export type { PresetTaskTable, TaskRow } from '../analyses/tasks.ts';
export type { OneHourAdvice } from '../analyses/trade-off-cost.ts';
export type { UserPrice } from '../catalog/prices.ts';
export { APP_MAX_FILE_BYTES, DEFAULT_LIMITS, overFileLimit } from '../formats/limits.ts';
export { isSqlite } from '../formats/sqlite.ts';
export { formatBytes } from '../lib/bytes.ts';
export { fullPolicy, STATIC_POLICY } from '../lib/csp.ts';
export { fmtUsd } from '../lib/money.ts';
export { servedPageReason } from '../lib/served-page.ts';
export type { ParseIssue } from '../model/transcript.ts';
export type { PairingRule, PairingViolation, Provider } from '../pairing/types.ts';
export { PROVIDERS } from '../pairing/types.ts';
export { ALIASES } from '../pipeline/aliases.ts';
export type { KeySpec, PipelineConfig } from '../pipeline/config.ts';
export {
  ConfigError,
  checkValue,
  configSchema,
  DEFAULT_CONFIG,
  diffKeys,
  getKey,
  KEY_SPECS,
  mergeConfig,
} from '../pipeline/config.ts';
export type { ConfigConflict } from '../pipeline/config-conflicts.ts';
export { configConflicts } from '../pipeline/config-conflicts.ts';
export type { PresetId } from '../pipeline/presets.ts';
export { isPresetId, PRESET_IDS, PRESETS, presetConfig } from '../pipeline/presets.ts';
export type { StageId } from '../pipeline/stage.ts';
export type { HttpCall, SummaryOutcome } from '../pipeline/summarizer.ts';
export type { CompactionListRow } from '../projections/compaction-list.ts';
export type { Row } from '../projections/rows.ts';
export type { WindowNotes } from '../projections/run-notes.ts';
export type { BreakRow, EventRow, TimelinePoint } from '../projections/timeline.ts';
export type { ReplayMode } from '../replay/inputs.ts';
export type { DayTotal, SortKey } from '../sessions/rows.ts';
export { SORT_KEYS } from '../sessions/rows.ts';
export type { SessionRow } from '../sessions/summary.ts';
export { linkFor, shareValue } from '../share/link.ts';
export type { MinimizeProgress } from '../share/minimize.ts';
export type { RedactionChange, RedactionPreview, RedactionWhere } from '../share/redact.ts';
export { DEFAULT_SETTINGS, settingsPayload } from '../share/settings-payload.ts';
export type { LinkSize } from '../share/size.ts';
export { classifyLink } from '../share/size.ts';
export type { ConfigTab, DetailTab, TableView, TimelineRange, View } from '../share/view.ts';
export {
  DEFAULT_TABLE,
  DEFAULT_VIEW,
  fragmentPairs,
  pairsText,
  parseProbeKey,
  probeKey,
  readViewPairs,
  viewPairs,
} from '../share/view.ts';
export type { EncodingName } from '../tokens/encodings.ts';
export type * from './engine-api.ts';
export type { SampleEntry, SampleManifest, SampleSettings } from './samples.ts';
