// Re-runs replay only what a settings change affects (SPEC §9, src/replay/reuse.ts): the config keys a
// thread's replay read are recorded (a gate its stages found shut as the largest estimate it saw), and a thread
// whose keys all keep their values and whose gates stay shut is reused — and is then exactly what a fresh replay
// would give.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Transcript } from '../../src/model/transcript.ts';
import { summarizerFor } from '../../src/pipeline/summarizer.ts';
import type { SummaryDrafts } from '../../src/pipeline/summary-drafts.ts';
import { ReplayCache } from '../../src/replay/cache.ts';
import { type ConfigReads, sameReads, trackedConfig } from '../../src/replay/reuse.ts';
import { replayTranscript } from '../../src/replay/transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { type Call, loop } from '../helpers/loop.ts';
import { configOf, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const bash = (n: number): Call => ({ tool: 'Bash', args: `go test ./pkg${n}`, result: '3000 chars' });
/** A long main thread that reaches the trigger, and a short sub-agent that never does. */
function twoThreads(): Transcript {
  const main = loop(Array.from({ length: 40 }, (_, i) => bash(i)));
  const side = loop([bash(100), bash(101)], 'Find the flaky test');
  return { ...main, threads: [main.threads[0], { ...side.threads[0], id: 'sidechain:a' }] };
}
const SET = { contextWindow: 24_000, outputReserve: 2_000 };

describe('config reads', () => {
  it('records the keys read with their values, a group (summarize, hardcap, toolCaps) whole', () => {
    const config = configOf({ set: SET });
    const reads: ConfigReads = new Map();
    const c = trackedConfig(config, reads);
    expect(c.tier3Window).toBe(config.tier3Window);
    expect(c.summarize.enabled).toBe(config.summarize.enabled);
    expect(c.floorTools).toEqual(config.floorTools);
    expect([...reads.keys()]).toEqual(['tier3Window', 'summarize', 'floorTools']);
    expect(reads.get('summarize')).toBe(JSON.stringify(config.summarize));
    expect(sameReads({ ...config, tier1Distance: 99 }, reads)).toBe(true);
    expect(sameReads({ ...config, tier3Window: 99 }, reads)).toBe(false);
    expect(sameReads({ ...config, summarize: { ...config.summarize, breakerCooldown: 99 } }, reads)).toBe(false);
    expect(sameReads({ ...config, floorTools: ['Read'] }, reads)).toBe(false);
    expect({ ...c.hardcap }).toEqual(config.hardcap);
    expect(JSON.parse(JSON.stringify(c))).toEqual(config);
    expect([...reads.keys()].sort()).toEqual(Object.keys(config).sort());
  });

  it('is read-only, groups included', () => {
    const config = configOf({ set: SET });
    const c = trackedConfig(config, new Map());
    expect(() => {
      (c as { tier3Window: number }).tier3Window = 1;
    }).toThrow(/read-only/);
    expect(() => {
      (c.summarize as { enabled: boolean }).enabled = false;
    }).toThrow();
    expect(config.summarize.enabled).toBe(true);
  });

  it('a tool cap read for a tool without a cap is a read of toolCaps: adding a cap re-runs', () => {
    const config = { ...configOf({ set: SET }), toolCaps: { Bash: 900 } as Record<string, number> };
    const reads: ConfigReads = new Map();
    const c = trackedConfig(config, reads);
    expect(c.toolCaps.Read).toBeUndefined();
    expect(sameReads({ ...config, toolCaps: { ...config.toolCaps, Read: 100 } }, reads)).toBe(false);
    expect(sameReads({ ...config, toolCaps: { ...config.toolCaps } }, reads)).toBe(true);
  });
});

describe('re-runs reuse untouched threads', () => {
  it('a tier3Window change re-runs the thread that tiers and reuses the one that never reached the trigger', () => {
    const t = twoThreads();
    const cache = new ReplayCache(t, new TokenMeter(tk));
    const opts = (tier3Window: number) => {
      const config = configOf({ set: { ...SET, tier3Window } });
      return {
        config,
        mode: 'recorded' as const,
        provider: 'anthropic' as const,
        summarizer: summarizerFor('extractive'),
      };
    };
    const a = replayTranscript(t, opts(8), cache);
    const b = replayTranscript(t, opts(5), cache);
    expect(a.threads[0].requests.some((q) => q.events.some((e) => e.stage === 'tiers'))).toBe(true);
    expect(a.threads[1].reads.has('tier3Window')).toBe(false);
    expect(b.threads[1]).toBe(a.threads[1]);
    expect(b.threads[0]).not.toBe(a.threads[0]);
    // What was reused, and what ran again, equal a fresh replay with a fresh cache.
    const fresh = replayTranscript(t, opts(5), new ReplayCache(t, new TokenMeter(tk)));
    t.threads.forEach((_, i) => {
      expect(b.threads[i].requests).toEqual(fresh.threads[i].requests);
      expect(b.threads[i].fates).toEqual(fresh.threads[i].fates);
    });
    // Back to the first value: the main thread runs again and gives the first result.
    const c = replayTranscript(t, opts(8), cache);
    expect(c.threads[0].requests).toEqual(a.threads[0].requests);
    expect(c.threads[1]).toBe(a.threads[1]);
  });

  it('a window change reuses the thread whose gates stay shut, and re-runs it once a line comes down to it', () => {
    const t = twoThreads();
    const cache = new ReplayCache(t, new TokenMeter(tk));
    const run = (contextWindow: number) =>
      replayTranscript(
        t,
        {
          config: configOf({ set: { ...SET, contextWindow } }),
          mode: 'recorded',
          provider: 'anthropic',
          summarizer: summarizerFor('extractive'),
        },
        cache,
      );
    const a = run(24_000);
    // The sub-agent never reached a line: it recorded gates, not the window.
    expect(a.threads[1].reads.has('contextWindow')).toBe(false);
    expect([...a.threads[1].reads.keys()].filter((k) => k.startsWith('gate:')).length).toBeGreaterThan(0);
    const wider = run(30_000);
    expect(wider.threads[1]).toBe(a.threads[1]);
    expect(wider.threads[0]).not.toBe(a.threads[0]);
    // A window so small that the sub-agent's prompt crosses the trigger re-runs it, and it now tiers or cuts.
    const tiny = run(2_500);
    expect(tiny.threads[1]).not.toBe(a.threads[1]);
    // Reused or not, every thread equals a fresh replay with a fresh cache.
    for (const [w, r] of [
      [30_000, wider],
      [2_500, tiny],
    ] as const) {
      const fresh = replayTranscript(
        t,
        {
          config: configOf({ set: { ...SET, contextWindow: w } }),
          mode: 'recorded',
          provider: 'anthropic',
          summarizer: summarizerFor('extractive'),
        },
        new ReplayCache(t, new TokenMeter(tk)),
      );
      t.threads.forEach((_, i) => {
        expect(r.threads[i].requests).toEqual(fresh.threads[i].requests);
        expect(r.threads[i].fates).toEqual(fresh.threads[i].fates);
      });
    }
  });

  it('another mode, provider or cache re-runs every thread', () => {
    const t = twoThreads();
    const cache = new ReplayCache(t, new TokenMeter(tk));
    const base = {
      config: configOf({ set: SET }),
      mode: 'recorded' as const,
      provider: 'anthropic' as const,
      summarizer: summarizerFor('extractive'),
    };
    const again = replayTranscript(t, base, cache);
    const provider = replayTranscript(t, { ...base, provider: 'openai-chat' }, cache);
    expect(provider.threads[1]).not.toBe(again.threads[1]);
    const otherCache = replayTranscript(
      t,
      { ...base, provider: 'openai-chat' },
      new ReplayCache(t, new TokenMeter(tk)),
    );
    expect(otherCache.threads[1]).not.toBe(provider.threads[1]);
  });

  it('an http summarizer is never reused: its answers arrive between runs', () => {
    const t = twoThreads();
    const cache = new ReplayCache(t, new TokenMeter(tk));
    const summarizer = summarizerFor('http', new Map());
    const o = {
      config: configOf({ set: { ...SET, summarizer: 'http' } }),
      mode: 'recorded' as const,
      provider: 'anthropic' as const,
      summarizer,
    };
    const a = replayTranscript(t, o, cache);
    const b = replayTranscript(t, o, cache);
    expect(b.threads[1]).not.toBe(a.threads[1]);
  });

  it('summary drafts measured in an earlier run are found again by content and give the same replay', () => {
    const t = loop(Array.from({ length: 60 }, (_, i) => bash(i)));
    const meter = new TokenMeter(tk);
    const cache = new ReplayCache(t, meter);
    const opts = (landingRatio: number) => ({
      config: configOf({ set: { contextWindow: 12_000, outputReserve: 0, tiersEnabled: false, landingRatio } }),
      mode: 'recorded' as const,
      provider: 'anthropic' as const,
      summarizer: summarizerFor('extractive'),
    });
    for (const landing of [0.5, 0.6, 0.5, 0.6]) {
      const warm = replayTranscript(t, opts(landing), cache).threads[0];
      const fresh = replayTranscript(t, opts(landing), new ReplayCache(t, new TokenMeter(tk))).threads[0];
      expect(warm.requests.filter((q) => q.events.some((e) => e.stage === 'summarize')).length).toBeGreaterThan(1);
      expect(warm.requests).toEqual(fresh.requests);
      expect(warm.fates).toEqual(fresh.fates);
    }
    // Drafts are measured (SummaryDrafts.draft, from their lines' counts) only the first time: a repeat run
    // measures none.
    const drafts = () => {
      let n = 0;
      const proto = Object.getPrototypeOf(cache.pipeline.drafts) as SummaryDrafts;
      const draft = proto.draft;
      const spy = vi.spyOn(proto, 'draft').mockImplementation(function (this: SummaryDrafts, ...a) {
        n++;
        return draft.apply(this, a);
      });
      return {
        done: () => {
          spy.mockRestore();
          return n;
        },
      };
    };
    let seen = drafts();
    replayTranscript(
      t,
      {
        ...opts(0.5),
        config: configOf({
          set: { contextWindow: 12_000, outputReserve: 0, tiersEnabled: false, landingRatio: 0.5, tier3Window: 9 },
        }),
      },
      cache,
    );
    expect(seen.done()).toBe(0);
    // Another session with the same thread id and summary numbers gets its own cache: nothing carries over.
    const other = loop(Array.from({ length: 60 }, (_, i) => ({ ...bash(i), result: `${1000 + 90 * i} chars` })));
    const otherCache = new ReplayCache(other, meter);
    seen = drafts();
    const warm = replayTranscript(other, opts(0.5), otherCache).threads[0];
    expect(seen.done()).toBeGreaterThan(0);
    const fresh = replayTranscript(other, opts(0.5), new ReplayCache(other, new TokenMeter(tk))).threads[0];
    expect(warm.requests).toEqual(fresh.requests);
  });
});
