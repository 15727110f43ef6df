// The replay tracks the recorded input's tool ids only from the first request that repeats one (PlanColumns
// firstRepeat): before it nothing can be pending, so a run that starts tracking there reports exactly what a run
// tracking from request 0 reports. Checked on sessions whose ids repeat late, early and never, under a window that
// makes the pipeline summarize and drop (splices), against the same analysis with tracking forced from request 0.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { PlanColumns } from '../../src/replay/plan-columns.ts';
import { asst, jsonl, load, type Obj, result, text, toolUse, user } from '../helpers/claude-code-lines.ts';
import { tokenizer } from '../helpers/replay.ts';
import { runFingerprint } from '../helpers/run-fingerprint.ts';

/** A session of `rounds` requests, each a tool call and its result; round i's call is named `idOf(i)`. */
function session(rounds: number, idOf: (i: number) => string): Transcript {
  const lines: Obj[] = [user('u0', null, 'Fix the failing test.')];
  let parent = 'u0';
  for (let i = 0; i < rounds; i++) {
    const id = idOf(i);
    lines.push(asst(`a${i}`, parent, `m${i}`, [text(`Round ${i}.`), toolUse(id, 'Read', { file_path: `f${i}.ts` })]));
    lines.push(user(`r${i}`, `a${i}`, [result(id, `export const v${i} = ${i};\n`.repeat(40))]));
    parent = `r${i}`;
  }
  return load(jsonl(...lines));
}

/** A window the pipeline works in (it drops the first use of a repeated id), and one it leaves alone (the input's
 *  duplicate is reported). */
const CONFIGS = [
  mergeConfig(presetConfig('seeds'), { contextWindow: 8_000, triggerRatio: 0.5 }),
  presetConfig('seeds'),
];
const config = CONFIGS[0];

async function fingerprint(t: Transcript, config = CONFIGS[0]) {
  const tok = await tokenizer();
  const a = analyze(t, { config, preset: 'seeds', mode: 'recorded', provider: 'anthropic', tokenizer: tok });
  return {
    print: JSON.stringify(runFingerprint(a)),
    pairing: a.replay.threads[0].requests.flatMap((q) => q.pairing.map((v) => v.rule)).join(' '),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tracking repeated input ids from the first repeat', () => {
  for (const [name, idOf] of [
    ['a late repeat', (i: number) => (i === 45 ? 'toolu_3' : `toolu_${i}`)],
    ['an early repeat', (i: number) => (i % 7 === 6 ? 'toolu_1' : `toolu_${i}`)],
    ['no repeat', (i: number) => `toolu_${i}`],
  ] as const) {
    it(`${name}: reports what tracking from request 0 reports`, async () => {
      const t = session(60, idOf);
      for (const c of CONFIGS) {
        const scanned = await fingerprint(t, c);
        const spy = vi.spyOn(PlanColumns.prototype, 'firstRepeat').mockReturnValue(0);
        const always = await fingerprint(t, c);
        expect(spy).toHaveBeenCalled();
        vi.restoreAllMocks();
        expect(scanned.print === always.print).toBe(true);
        if (name !== 'no repeat' && c === CONFIGS[1]) expect(scanned.pairing).toContain('duplicate-id');
      }
    });
  }

  it('finds the first request whose input repeats an id', async () => {
    const t = session(60, (i) => (i === 45 ? 'toolu_3' : `toolu_${i}`));
    const tok = await tokenizer();
    let seen = -1;
    const real = PlanColumns.prototype.firstRepeat;
    vi.spyOn(PlanColumns.prototype, 'firstRepeat').mockImplementation(function (this: PlanColumns) {
      seen = real.call(this);
      return seen;
    });
    analyze(t, { config, preset: 'seeds', mode: 'recorded', provider: 'anthropic', tokenizer: tok });
    const requests = t.threads[0].requests;
    // Round 45's call repeats round 3's id: the first request whose input holds it (the one after that call).
    expect(seen).toBeGreaterThan(40);
    expect(seen).toBeLessThan(requests.length);
  });
});
