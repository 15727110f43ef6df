import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { diffKeys, getKey, KEY_SPECS, type KeySpec, type PipelineConfig, presetConfig } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { FromTheLog } from '../common/FromTheLog.tsx';
import { ttlNote, windowNote } from '../common/log-default-note.ts';
import { KeyControl } from './KeyControl.tsx';

/** Sections in pipeline order; a key no section names lands in "Other" (new keys still get a control). */
const SECTIONS: { title: string; keys: string[] }[] = [
  {
    title: 'Window & trigger',
    keys: [
      'contextWindow',
      'outputReserve',
      'triggerRatio',
      'triggerBufferTokens',
      'landingRatio',
      'landingBufferTokens',
    ],
  },
  {
    title: 'Tiers',
    keys: [
      'tiersEnabled',
      'tier3Window',
      'tier1Distance',
      'tier2Cap',
      'tier2SummarizeMin',
      'summaryAttemptsPerPass',
      'floorTools',
      'floorScope',
    ],
  },
  {
    title: 'Observations & spill',
    keys: [
      'observationWindow',
      'guiTools',
      'spillThreshold',
      'spillPreview',
      'batchAggregateTarget',
      'minAggregateSpill',
      'selfCappedTools',
      'toolCaps',
    ],
  },
  {
    title: 'Microcompact',
    keys: ['microcompact.enabled', 'microcompact.keepRecent', 'microcompact.excludeTools', 'microcompact.clearAtLeast'],
  },
  {
    title: 'Summarize',
    keys: ['summarize.enabled', 'summarize.breakerFailures', 'summarize.breakerCooldown', 'summarizer'],
  },
  { title: 'Hard cap', keys: ['hardcap.enabled', 'hardcap.minRecentTurns', 'hardcap.keepLastMessages'] },
  {
    title: 'Cache (the provider’s rules; null = per model)',
    keys: ['cache.ttlSeconds', 'cache.minCacheable', 'cache.step', 'cache.readMultiplier', 'cache.writeMultiplier'],
  },
  { title: 'Prices', keys: ['prices'] },
];

function sections(): { title: string; specs: KeySpec[] }[] {
  const byKey = new Map(KEY_SPECS.map((s) => [s.key, s]));
  const used = new Set<string>();
  const out = SECTIONS.map((sec) => ({
    title: sec.title,
    specs: sec.keys.flatMap((k) => {
      const s = byKey.get(k);
      if (!s) return [];
      used.add(k);
      return [s];
    }),
  }));
  const rest = KEY_SPECS.filter((s) => !used.has(s.key));
  if (rest.length > 0) out.push({ title: 'Other', specs: rest });
  return out.filter((s) => s.specs.length > 0);
}

/** Every config key, grouped by stage; keys that differ from the preset (with the log's defaults) are marked and
 *  resettable, and the context window says where it came from. */
export function ConfigControls({ config, presetCfg }: { config: PipelineConfig; presetCfg: PipelineConfig }) {
  const groups = useMemo(sections, []);
  const changed = useMemo(() => new Set(diffKeys(config, presetCfg)), [config, presetCfg]);
  const { log, from, preset } = useStore(
    useShallow((s) => ({ log: s.config.log, from: s.config.from, preset: s.config.preset })),
  );
  const windowLabel = windowNote(log, config.contextWindow, presetConfig(preset).contextWindow, from);
  const ttlLabel = ttlNote(log, config.cache.ttlSeconds, presetConfig(preset).cache.ttlSeconds, from);
  return (
    <div className="cfg-sections">
      {groups.map((g) => (
        <fieldset key={g.title} className="cfg-section">
          <legend>{g.title}</legend>
          {g.specs.map((s) => (
            <KeyControl
              key={s.key}
              spec={s}
              config={config}
              value={getKey(config, s.key)}
              presetValue={getKey(presetCfg, s.key)}
              changed={changed.has(s.key)}
              note={
                s.key === 'contextWindow' ? (
                  <FromTheLog note={windowLabel} testId="default-contextWindow" />
                ) : s.key === 'cache.ttlSeconds' ? (
                  <FromTheLog note={ttlLabel} testId="default-cache-ttl" />
                ) : undefined
              }
            />
          ))}
        </fieldset>
      ))}
    </div>
  );
}
