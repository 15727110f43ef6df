// The minimizer (SPEC §7): ddmin over removable units shrinks a seeded 500-message session with one pairing
// bug to a handful of messages that fail the same way; it also keeps a tier or a cache-break cause; removal
// keeps transcripts well-formed (pairs and batches go together, indices and requests renumbered, request
// logs' exact inputs cut consistently); it reports progress, can be cancelled and is budgeted.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnalyzeOptions, analyze } from '../../src/analyses/analyze.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { validatePairing } from '../../src/pairing/validate.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { type MinimizeProgress, minimize } from '../../src/share/minimize.ts';
import { findWitness, parsePredicate, predicateTester } from '../../src/share/predicate.ts';
import { Reducer } from '../../src/share/reduce.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';
import { type Call, loopDsl, type Turn } from '../helpers/loop.ts';
import { tokenizer } from '../helpers/replay.ts';

/** A small deterministic generator (Park–Miller) so sessions are seeded and reproducible. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

const TOOLS = ['Read', 'Bash', 'Grep', 'Edit'];

/** A seeded agent loop of `turns` turns (2 messages each), sometimes parallel calls. */
function sessionDsl(turns: number, seed: number): string {
  const rnd = seeded(seed);
  const call = (i: number, k: number): Call => ({
    tool: TOOLS[Math.floor(rnd() * TOOLS.length)],
    args: `src/mod${i}_${k}.ts`,
    result: `${50 + Math.floor(rnd() * 3000)} chars`,
  });
  const out: Turn[] = [];
  for (let i = 0; i < turns; i++) out.push(rnd() < 0.15 ? [call(i, 0), call(i, 1)] : call(i, 0));
  return loopDsl(out);
}

/** Insert DSL lines (as their own message) before the `n`-th `-` separator: odd n lands between two turns,
 *  even n between a turn's tool_use and its result. */
function insertAt(dsl: string, n: number, lines: string[]): string {
  const all = dsl.split('\n');
  let seen = 0;
  const at = all.findIndex((l) => l === '-' && ++seen === n);
  all.splice(at, 0, '-', ...lines);
  return all.join('\n');
}

function messages(t: Transcript): number {
  return t.threads.reduce((n, th) => n + th.messages.length, 0);
}

/** Every thread is well-formed: indices are positions, requests are renumbered and inside the thread. */
function expectWellFormed(t: Transcript): void {
  for (const th of t.threads) {
    th.messages.forEach((m, i) => {
      expect(m.index).toBe(i);
    });
    th.requests.forEach((r, i) => {
      expect(r.index).toBe(i);
      expect(r.inputEnd).toBeLessThanOrEqual(th.messages.length);
      if (r.responseEnd !== undefined) expect(r.responseEnd).toBeLessThanOrEqual(th.messages.length);
      if (i > 0) expect(r.inputEnd).toBeGreaterThanOrEqual(th.requests[i - 1].inputEnd);
      // Exact-input messages are numbered by position, or (after an agent compaction) by thread index.
      r.exactInput?.forEach((m, k) => {
        expect(m.index === k || (m.index >= 0 && m.index < th.messages.length)).toBe(true);
      });
    });
  }
}

let tok: CachedTokenizer;
let settings: AnalyzeOptions;
beforeAll(async () => {
  tok = await tokenizer();
  settings = {
    config: presetConfig('seeds'),
    preset: 'seeds',
    mode: 'recorded',
    provider: 'anthropic',
    tokenizer: tok,
  };
});

describe('minimize a seeded 500-message session with one pairing bug', () => {
  const cases = [
    {
      name: 'an orphan result',
      predicate: 'pairing:orphan-result@input',
      dsl: () => insertAt(sessionDsl(249, 7), 301, ['U tr(ghost) "stray output of a lost call"']),
    },
    {
      name: 'a summary inserted between a tool_use and its result (recorded input restarts at it)',
      predicate: 'pairing:orphan-result@input',
      dsl: () => insertAt(sessionDsl(249, 11), 400, ['U summary Earlier: the agent read the auth module.']),
    },
    {
      name: 'a compaction boundary between a tool_use and its result',
      predicate: 'pairing:summary-between-pair@input',
      dsl: () => insertAt(sessionDsl(249, 13), 200, ['U ---8<--- compacted here']),
      boundary: true,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ≤ 10 messages that still fail the same way`, async () => {
      const t = transcript(c.dsl());
      if (c.boundary) {
        const m = t.threads[0].messages.find(
          (x) => x.blocks[0]?.type === 'text' && x.blocks[0].text.startsWith('---8<'),
        );
        if (!m) throw new Error('boundary message not found');
        m.compaction = 'boundary';
      }
      expect(messages(t)).toBeGreaterThanOrEqual(500);
      const p = parsePredicate(c.predicate);
      const progress: MinimizeProgress[] = [];
      const r = await minimize(t, predicateTester(p, settings), { onProgress: (x) => progress.push(x) });
      if (!r.ok) throw new Error(r.error);
      expect(r.status).toBe('minimal');
      expect(r.after.messages).toBeLessThanOrEqual(10);
      expect(r.before.messages).toBe(messages(t));
      expectWellFormed(r.transcript);
      const report = analyze(r.transcript, settings).report;
      expect(findWitness(p, report)).not.toBeNull();
      expect(report.pairing.some((v) => v.rule === (p.kind === 'pairing' ? p.rule : '') && v.stage === 'input')).toBe(
        true,
      );
      // Progress: one report per evaluation, best size never grows.
      expect(progress.map((x) => x.evaluations)).toEqual(progress.map((_, i) => i + 2));
      for (let i = 1; i < progress.length; i++) expect(progress[i].units).toBeLessThanOrEqual(progress[i - 1].units);
      expect(progress.at(-1)?.messages).toBe(r.after.messages);
      expect(r.evaluations).toBeLessThan(200);
    });
  }
});

describe('minimize keeps a tier or a cache-break cause', () => {
  it('a result that gets Tier 1 keeps Tier 1 in a smaller session', async () => {
    const config = mergeConfig(presetConfig('seeds'), {
      contextWindow: 12_000,
      outputReserve: 1_000,
      tier1Distance: 4,
    });
    const o = { ...settings, config };
    const t = transcript(sessionDsl(40, 3));
    const tier1 = analyze(t, o).report.toolResults.find((x) => x.tier === 1);
    if (!tier1) throw new Error('expected a Tier-1 result in the seeded session');
    const p = parsePredicate(`tier:${tier1.toolUseId}=1`);
    const r = await minimize(t, predicateTester(p, o));
    if (!r.ok) throw new Error(r.error);
    expect(r.after.messages).toBeLessThan(r.before.messages);
    expectWellFormed(r.transcript);
    const row = analyze(r.transcript, o).report.toolResults.find((x) => x.toolUseId === tier1.toolUseId);
    expect(row?.tier).toBe(1);
    expect(r.witness).toMatchObject({ thread: 'main', message: row?.messageIndex });
  });

  it('a TTL-expired cache break keeps its cause with only the requests around the gap', async () => {
    const lines = ['U Start the migration'];
    for (let i = 0; i < 30; i++) {
      const t = i < 20 ? 10 * i : 10 * i + 900; // a 15-minute pause after request 19
      lines.push('-', `A{t=${t}} tu(c${i}) Read src/part${i}.ts`, '-', `U tr(c${i}) 2500 chars`);
    }
    lines.push('-', 'A{t=2000} Done.');
    const t = transcript(lines.join('\n'));
    const p = parsePredicate('break:ttl-expired');
    expect(findWitness(p, analyze(t, settings).report)).toMatchObject({ request: 20 });
    const r = await minimize(t, predicateTester(p, settings));
    if (!r.ok) throw new Error(r.error);
    // Three requests of context before the gap are needed: a break must lose ≥ minCacheable (1,024) tokens.
    expect(r.after.requests).toBeLessThanOrEqual(4);
    expect(r.witness.detail).toMatch(/^ttl-expired: cache expired/);
  });
});

describe('minimize runs like a worker job', () => {
  const big = () => transcript(insertAt(sessionDsl(249, 5), 101, ['U tr(ghost) "stray"']));
  const p = parsePredicate('pairing:orphan-result@input');

  it('stops on an abort signal with the best result so far', async () => {
    const t = big();
    const ctl = new AbortController();
    const r = await minimize(t, predicateTester(p, settings), {
      signal: ctl.signal,
      onProgress: (x) => {
        if (x.evaluations >= 3) ctl.abort();
      },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.status).toBe('cancelled');
    expect(r.evaluations).toBe(3);
    expect(r.after.messages).toBeLessThan(r.before.messages);
    expect(findWitness(p, analyze(r.transcript, settings).report)).not.toBeNull();
  });

  it('yields to the event loop, so a cancel that arrives as a message gets through', async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 0);
    const r = await minimize(big(), predicateTester(p, settings), {
      signal: ctl.signal,
      yieldControl: () => new Promise((resolve) => setTimeout(resolve, 0)),
    });
    expect(r).toMatchObject({ ok: true, status: 'cancelled', evaluations: 1 });
  });

  it('stops at the evaluation budget with the best result so far', async () => {
    const r = await minimize(big(), predicateTester(p, settings), { maxEvaluations: 6 });
    if (!r.ok) throw new Error(r.error);
    expect(r.status).toBe('budget');
    expect(r.evaluations).toBe(6);
    expect(findWitness(p, analyze(r.transcript, settings).report)).not.toBeNull();
  });

  it('says so when the predicate does not hold on the input', async () => {
    const r = await minimize(transcript(sessionDsl(5, 1)), predicateTester(p, settings));
    expect(r).toEqual({ ok: false, error: 'the predicate does not hold on the input', evaluations: 1 });
  });
});

describe('removal keeps transcripts well-formed', () => {
  it('any subset of units of a valid session is a valid session (pairs and batches go together)', () => {
    const t = transcript(sessionDsl(30, 21));
    const reducer = new Reducer(t);
    expect(reducer.units.every((u) => u.messages.length === 1 || u.messages.length === 2)).toBe(true);
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: reducer.units.length, maxLength: reducer.units.length }),
        (keep) => {
          const kept = reducer.units.filter((_, i) => keep[i]);
          const out = reducer.build(kept);
          expect(messages(out)).toBe(reducer.messageCount(kept));
          expectWellFormed(out);
          for (const th of out.threads) {
            const errors = validatePairing(th.messages, {
              thread: th.id,
              request: 0,
              stage: 'input',
              provider: 'anthropic',
            });
            expect(errors.filter((v) => v.severity === 'error')).toEqual([]);
            // Each request still answers with an assistant message right after its input.
            for (const r of th.requests) expect(th.messages[r.inputEnd]?.role).toBe('assistant');
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describeReal('minimize real request logs and sessions', () => {
  it('claude-trace: the tools-changed break survives with exact inputs cut consistently', async () => {
    const t = loadReal('claude-trace/lemmy-test-traffic.redacted.jsonl');
    const p = parsePredicate('break:tools-changed');
    const r = await minimize(t, predicateTester(p, settings));
    if (!r.ok) throw new Error(r.error);
    expect(r.after.messages).toBeLessThan(r.before.messages / 4);
    expect(r.after.threads).toBeLessThan(r.before.threads);
    expectWellFormed(r.transcript);
    expect(findWitness(p, analyze(r.transcript, settings).report)).not.toBeNull();
  });

  it('codex: an orphan result in a real rollout shrinks to a few messages', async () => {
    const t = loadReal('codex/synthetic-agentsessions-codex-itemtypes.jsonl');
    const p = parsePredicate('pairing:orphan-result@input');
    const r = await minimize(t, predicateTester(p, settings));
    if (!r.ok) throw new Error(r.error);
    expect(r.after.messages).toBeLessThanOrEqual(4);
    expectWellFormed(r.transcript);
    expect(findWitness(p, analyze(r.transcript, settings).report)).not.toBeNull();
  });
});
