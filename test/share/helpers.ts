// Shared helpers for the share tests: the real fixture list (every input file, companions excluded),
// analysis settings per preset, and report comparison that ignores only the load format (a link always
// reopens as a `tierscope` bundle; `meta.originalFormat` keeps the original).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type AnalyzeOptions, analyze } from '../../src/analyses/analyze.ts';
import type { Report } from '../../src/analyses/report.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../../src/pipeline/presets.ts';
import type { ShareSettings } from '../../src/share/payload.ts';
import type { Tokenizer } from '../../src/tokens/tokenizer.ts';
import { HAVE_REAL, REAL_DIR } from '../helpers/fixtures.ts';

/** Every real fixture file (relative to REAL_DIR); sub-agent files load as companions of their session. */
export function realFixtures(): string[] {
  if (!HAVE_REAL) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'subagents') walk(p);
      } else if (!f.endsWith('.md')) out.push(relative(REAL_DIR, p));
    }
  };
  walk(REAL_DIR);
  return out;
}

/** Settings for a preset, optionally with overrides (a small window makes tiers and summaries happen). */
export function settingsFor(preset: PresetId, set: Record<string, unknown> = {}): ShareSettings {
  return {
    preset,
    config: mergeConfig(presetConfig(preset), set),
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  };
}

/** A tight window so the pipeline rewrites even the small real fixtures. */
export const TIGHT = { contextWindow: 12_000, outputReserve: 1_000, tier3Window: 2, tier1Distance: 4 };

export function reportOf(t: Transcript, s: ShareSettings, tokenizer: Tokenizer): Report {
  const o: AnalyzeOptions = { ...s, tokenizer };
  return analyze(t, o).report;
}

/** The report without the load format (a decoded link is a `tierscope` bundle). */
export function comparable(r: Report): Omit<Report, 'format'> {
  const { format: _f, ...rest } = r;
  return rest;
}
