// Presets as data (SPEC §4): each is a partial config over the seeds defaults, selectable in the UI
// and the CLI. `kocoro-source` follows what Kocoro's source actually does (reference/kocoro-behaviour.md),
// `claude-code` and `context-editing` mirror those systems, `sliding-window` shows why cutting the
// front of the history breaks the prompt cache on every request, `none` replays without rewriting.
import { DEFAULT_CONFIG, mergeConfig, type PipelineConfig } from './config.ts';

export type PresetId = 'seeds' | 'kocoro-source' | 'claude-code' | 'context-editing' | 'sliding-window' | 'none';

export type Preset = { id: PresetId; title: string; description: string; overrides: Record<string, unknown> };

export const PRESETS: readonly Preset[] = [
  {
    id: 'seeds',
    title: 'Tiers + spill + summary (default)',
    description:
      'Spill tool results over 50K runes to a file, compress older ones by distance (Tier 3/2/1 at 8/20, Tier-2 cap 300), anchored summaries at 80% of the window. The design of book chapters 36–37 (the "seeds" preset).',
    overrides: {},
  },
  {
    id: 'kocoro-source',
    title: 'Kocoro runtime (as its source does it)',
    description:
      'What the Kocoro runtime really does: trigger max(0.9W, W−60K), landing max(0.8W, W−180K), floors per message, declared caps bash 30K / grep 20K.',
    overrides: {
      triggerRatio: 0.9,
      triggerBufferTokens: 60_000,
      landingRatio: 0.8,
      landingBufferTokens: 180_000,
      floorScope: 'message',
      toolCaps: { bash: 30_000, grep: 20_000 },
    },
  },
  {
    id: 'claude-code',
    title: 'Claude Code',
    description:
      'Tool results over 50K to disk with a 2K preview, 200K per message, microcompact keeping 5, auto-compact near 83.5% of the window; no tiers.',
    overrides: {
      triggerRatio: 0,
      triggerBufferTokens: 33_000,
      landingRatio: 0.3,
      tiersEnabled: false,
      microcompact: { enabled: true, keepRecent: 5, excludeTools: [], clearAtLeast: 0 },
      observationWindow: 1000,
    },
  },
  {
    id: 'context-editing',
    title: 'Anthropic context editing',
    description: 'clear_tool_uses_20250919: over 100K input tokens clear old tool results, keeping the last 3.',
    overrides: {
      triggerRatio: 0.5,
      tiersEnabled: false,
      spillThreshold: 100_000_000,
      batchAggregateTarget: 100_000_000,
      microcompact: { enabled: true, keepRecent: 3, excludeTools: [], clearAtLeast: 0 },
      summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
      observationWindow: 1000,
    },
  },
  {
    id: 'sliding-window',
    title: 'Sliding window (last 40 messages)',
    description:
      'Keep only the last 40 messages: the front of the prompt changes on every request, so the cache never hits.',
    overrides: {
      tiersEnabled: false,
      spillThreshold: 100_000_000,
      batchAggregateTarget: 100_000_000,
      summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
      hardcap: { enabled: true, minRecentTurns: 1, keepLastMessages: 40 },
      observationWindow: 1000,
    },
  },
  {
    id: 'none',
    title: 'No rewriting',
    description: 'No rewriting at all: the recorded inputs as they were.',
    overrides: {
      tiersEnabled: false,
      observationWindow: 1_000_000,
      spillThreshold: 100_000_000,
      batchAggregateTarget: 100_000_000,
      summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
      hardcap: { enabled: false, minRecentTurns: 2, keepLastMessages: null },
    },
  },
];

export const PRESET_IDS: readonly PresetId[] = PRESETS.map((p) => p.id);

/** Whether `id` names a preset of this build (a link or a share file may name one it does not know). */
export function isPresetId(id: string): id is PresetId {
  return (PRESET_IDS as readonly string[]).includes(id);
}

/** The full config of a preset. */
export function presetConfig(id: PresetId): PipelineConfig {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`unknown preset "${id}" (one of ${PRESET_IDS.join(', ')})`);
  return mergeConfig(DEFAULT_CONFIG, p.overrides);
}
