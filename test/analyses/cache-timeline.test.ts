// Cache timelines: observed break causes on the real fixtures with usage, and TTL / model / pipeline
// attribution on small DSL transcripts.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { isBreak, observedTimeline, simulatedTimeline } from '../../src/analyses/cache-timeline.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';
import { loop, repeat } from '../helpers/loop.ts';
import { run, tokenizer } from '../helpers/replay.ts';

const seeds = presetConfig('seeds');

describe('break threshold', () => {
  it('a read below 80% of the previous prompt that loses at least the minimum is a break', () => {
    expect(isBreak(5000, 10_000, 1024)).toBe(true);
    expect(isBreak(9000, 10_000, 1024)).toBe(false);
    expect(isBreak(500, 1000, 1024)).toBe(false);
    expect(isBreak(0, 0, 1024)).toBe(false);
  });
});

describe('observed causes on DSL transcripts', () => {
  it('ttl-expired names the gap and the TTL; model-changed; agent-compaction', () => {
    const t = transcript(`
      U start
      A{t=0,usage=3/0/20000} one
      U more
      A{t=60,usage=3/20000/500} two
      U later
      A{t=500,usage=3/0/21000} three
      U again
      A{t=520,model=other,usage=3/0/21500} four
      U summary The session so far
      A{t=530,usage=3/0/3000} five
    `);
    t.threads[0].requests.forEach((r) => {
      if (!r.model) r.model = 'm1';
    });
    t.threads[0].requests[4].model = 'other';
    t.threads[0].requests[4].boundary = 'agent-compaction';
    const points = observedTimeline(t, seeds);
    expect(points.map((p) => p.break?.cause ?? null)).toEqual([
      null,
      null,
      'ttl-expired',
      'model-changed',
      'agent-compaction',
    ]);
    expect(points[2].break?.detail).toBe('cache expired: 7 min 20 s since the previous response; TTL 5 min');
    expect(points[1].hitRate).toBeCloseTo(20000 / 20503, 5);
  });

  it('1-hour cache writes make the TTL one hour', () => {
    const t = transcript(`
      U start
      A{t=0,usage=3/0/20000} one
      U later
      A{t=1200,usage=3/0/20500} two
    `);
    if (t.threads[0].requests[0].observed) t.threads[0].requests[0].observed.cacheWrite1h = 20000;
    expect(observedTimeline(t, seeds)[1].break?.cause).toBe('unexplained');
  });
});

describe('simulated timeline', () => {
  it('a tier rewrite inside the cached prefix is the cause of the simulated break, with the tokens it invalidated', async () => {
    const t = loop(repeat(34, { tool: 'Bash', args: 'go test', result: '3000 chars' }));
    const r = await run(t, { set: { contextWindow: 24_000, outputReserve: 2000 } });
    const sim = simulatedTimeline(t, r);
    const broken = sim.filter((p) => p.break);
    expect(broken.length).toBeGreaterThan(0);
    const first = broken[0];
    expect(first.break?.cause).toBe('tiers');
    expect(first.break?.detail).toMatch(/tiers tier 1 tier1 rewrote message \d+ inside the cached prefix/);
    expect(first.break?.tokensLost).toBeGreaterThan(1000);
    // with no rewriting the same log never breaks
    const none = await run(t, { preset: 'none' });
    expect(simulatedTimeline(t, none).filter((p) => p.break)).toEqual([]);
  });

  it('a summary inside the cached prefix points at the first message it folded, and names its stage once', async () => {
    const t = loop(repeat(40, { tool: 'Bash', args: 'go test', result: '3000 chars' }));
    const r = await run(t, { set: { contextWindow: 24_000, outputReserve: 2000, tiersEnabled: false } });
    const sim = simulatedTimeline(t, r);
    const byStage = sim.filter((p) => p.break?.cause === 'summarize');
    expect(byStage.length).toBeGreaterThan(0);
    const folded = r.threads[0].folded;
    for (const p of byStage) {
      const first = folded.indexOf(p.index);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(p.break?.messageIndex).toBe(first);
      expect(p.break?.detail).toMatch(
        new RegExp(`^summarize replaced messages from ${first} on with a summary inside`),
      );
    }
  });

  it('the sliding window breaks the cache on every request once it starts dropping', async () => {
    const t = loop(repeat(60, { tool: 'Bash', args: 'ls', result: '1500 chars' }));
    const r = await run(t, { preset: 'sliding-window' });
    const sim = simulatedTimeline(t, r);
    const late = sim.slice(25);
    expect(late.every((p) => p.break?.cause === 'hardcap')).toBe(true);
    expect(late.every((p) => p.cacheRead === 0)).toBe(true);
  });
});

describeReal('observed timelines of the real fixtures', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  const opts = () => ({
    config: seeds,
    preset: 'seeds',
    mode: 'recorded' as const,
    provider: 'anthropic' as const,
    tokenizer: tok,
  });

  it('fe5e1c67: every observed drop is the first request of a sub-agent, and one still reads the ~11.4k shared prefix', () => {
    const t = loadReal('claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    const points = observedTimeline(t, seeds);
    expect(points).toHaveLength(170);
    const breaks = points.filter((p) => p.break);
    expect(breaks.map((p) => p.break?.cause)).toEqual(['sidechain', 'sidechain', 'sidechain', 'sidechain']);
    expect(breaks.every((p) => p.index === 0 && p.thread.startsWith('sidechain:'))).toBe(true);
    expect(breaks.map((p) => p.cacheRead)).toContain(11381);
    const main = points.filter((p) => p.thread === 'main');
    expect(main.every((p) => p.break === null)).toBe(true);
    const report = analyze(t, opts()).report;
    expect(report.totals.observed?.hitRate).toBeGreaterThan(0.9);
  });

  it('claude-trace: side calls are flagged as their own threads, and the /compact request changed the tools', () => {
    const t = loadReal('claude-trace/lemmy-test-traffic.redacted.jsonl');
    const points = observedTimeline(t, seeds);
    expect(points).toHaveLength(64);
    const causes = points.filter((p) => p.break).map((p) => p.break?.cause);
    expect(causes.filter((c) => c === 'sidechain').length).toBeGreaterThanOrEqual(10);
    const tools = points.find((p) => p.break?.cause === 'tools-changed');
    expect(tools?.thread).toBe('main');
    expect(tools?.cacheRead).toBe(0);
  });

  it('openai-chat / inspect: cached tokens are part of the prompt and nothing breaks', () => {
    for (const f of [
      'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl',
      'inspect/inspect-browser-gpt4o-mini.json',
    ]) {
      const points = observedTimeline(loadReal(f), seeds);
      expect(points).toHaveLength(5);
      expect(points.filter((p) => p.break)).toEqual([]);
      expect(points[1].cacheRead).toBe(1024);
      expect(points[1].prompt).toBe(1568);
    }
  });
});
