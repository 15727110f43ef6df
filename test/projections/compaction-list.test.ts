// The run's reply lists compactions without their probe and re-fetch items (the compaction view asks for the open
// one whole): on a real session with an agent compaction and, replayed raw in a 60k window, pipeline summaries,
// each listed row keeps every other fact (not the anchored summary's tokens: only the compaction view reads them, and
// they are made when read) and counts what the audit's row holds.
import { expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { PROBE_KINDS, probeSummary } from '../../src/analyses/probes.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { compactionListRow } from '../../src/projections/compaction-list.ts';
import { describeWild, loadWild } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

const CC =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';

describeWild('compaction list rows', () => {
  it('keep every fact of the audit’s row and count its items', async () => {
    const tok = await tokenizer();
    const t = loadWild(CC);
    const config = mergeConfig(presetConfig('seeds'), { contextWindow: 60000 });
    const rows = analyze(t, { preset: 'seeds', config, mode: 'raw', provider: 'anthropic', tokenizer: tok }).audit
      .compactions;
    expect(rows.some((r) => r.source === 'agent')).toBe(true);
    expect(rows.some((r) => r.source === 'pipeline')).toBe(true);
    let lost = 0;
    for (const row of rows) {
      const listed = compactionListRow(row);
      const { probes, anchoredProbes, anchoredTokens, refetchesAfter, ...facts } = row;
      const count = (side: 'kept' | 'lost') => PROBE_KINDS.reduce((n, k) => n + probes[k][side].length, 0);
      expect(listed).toEqual({
        ...facts,
        kept: count('kept'),
        lost: count('lost'),
        refetchesAfter: { count: refetchesAfter.count, tokens: refetchesAfter.tokens, usd: refetchesAfter.usd },
      });
      expect(JSON.stringify(listed)).not.toContain('"items"');
      expect(anchoredProbes).toBeDefined();
      expect(anchoredTokens).toBeGreaterThan(0);
      expect(listed).not.toHaveProperty('anchoredTokens');
      lost += listed.lost;
    }
    expect(lost).toBeGreaterThan(0);
  });

  it('probe a pipeline summary through the sections it was rendered from as its text does', async () => {
    const tok = await tokenizer();
    const t = loadWild(CC);
    const config = mergeConfig(presetConfig('seeds'), { contextWindow: 60000 });
    const { audit } = analyze(t, { preset: 'seeds', config, mode: 'raw', provider: 'anthropic', tokenizer: tok });
    let lost = 0;
    for (const row of audit.compactions.filter((r) => r.source === 'pipeline')) {
      const texts = audit.texts.get(row.id);
      if (!texts) throw new Error(`no texts for ${row.id}`);
      expect(row.probes, row.id).toEqual(probeSummary(texts.summary, texts.ledger));
      lost += PROBE_KINDS.reduce((n, k) => n + row.probes[k].lost.length, 0);
    }
    // Items the summaries lost: a listed item must not be taken for one that is there.
    expect(lost).toBeGreaterThan(0);
  });
});
