// Pairing violations are blamed on the stage that caused them (SPEC §4 and §5.1): a broken recorded input
// is reported once as `input`; stages given a history where only a correct cut exists report nothing; and
// `newViolations` blames a stage only for what its output adds to its input's violations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/transcript.ts';
import {
  newViolations,
  type PairingContext,
  PROVIDERS,
  type Provider,
  validatePairing,
} from '../../src/pairing/validate.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { messages, transcript } from '../helpers/dsl.ts';
import { withMessage } from '../helpers/dsl-extra.ts';
import { type RunOptions, replayFirst, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const ctx = (provider: Provider, stage: string): PairingContext => ({ thread: 'main', request: 4, stage, provider });

const VALID = `
  U Fix it
  A tu(a) Read a.ts
  A tu(b) Read b.ts
  U tr(a) 300 chars
  U tr(b) 300 chars
  A tu(c) Bash npm test
  U tr(c) 100 chars
  A tu(d) Bash npm run lint
  U tr(d) 100 chars`;

describe('newViolations (blame)', () => {
  it.each(PROVIDERS)('a hand-made broken output is blamed for exactly what it broke (%s)', (provider) => {
    const before = messages(VALID);
    // the "stage" dropped the assistant message of the parallel batch but kept its results
    const broken = [before[0], ...before.slice(2)];
    const was = validatePairing(before, ctx(provider, 'input'));
    const now = validatePairing(broken, ctx(provider, 'hardcap'));
    expect(was).toEqual([]);
    const blamed = newViolations(was, now);
    expect(blamed.length).toBeGreaterThan(0);
    expect(blamed.every((v) => v.stage === 'hardcap')).toBe(true);
    expect(blamed.filter((v) => v.severity === 'error').length).toBeGreaterThan(0);
  });

  it('violations already in the stage input are not blamed again; only the new one is', () => {
    const input = withMessage(messages(VALID), 4, (m) => ({ ...m, blocks: [{ type: 'text', text: 'lost result' }] }));
    const was = validatePairing(input, ctx('anthropic', 'input'));
    expect(was.map((v) => [v.rule, v.toolUseId])).toEqual([['missing-result', 'c']]);
    const same = [...input];
    expect(newViolations(was, validatePairing(same, ctx('anthropic', 'summarize')))).toEqual([]);
    const worse = withMessage(input, 6, (m) => ({ ...m, blocks: [{ type: 'text', text: 'lost too' }] }));
    const blamed = newViolations(was, validatePairing(worse, ctx('anthropic', 'summarize')));
    expect(blamed.map((v) => [v.stage, v.rule, v.toolUseId])).toEqual([['summarize', 'missing-result', 'd']]);
  });
});

describe('in the replay', () => {
  it('a broken recorded input is blamed on input, once, and never on a stage', () => {
    const t = transcript(`
      U Fix it
      A tu(a) Read a.ts
      U tr(a) 3000 chars
      A tu(b) Bash npm test
      U interrupted
      ${Array.from({ length: 20 }, (_, i) => `A tu(f${i}) Bash go test ./p${i}\nU tr(f${i}) 3000 chars`).join('\n')}
      A Done.`);
    const r = replayFirst(tk, t, { set: { contextWindow: 8_000, outputReserve: 1_000, tiersEnabled: false } });
    const all = r.requests.flatMap((q) => q.pairing);
    expect(all.map((v) => [v.stage, v.rule, v.toolUseId])).toEqual([['input', 'missing-result', 'b']]);
    expect(r.requests.flatMap((q) => q.events).some((e) => e.stage === 'summarize' || e.stage === 'hardcap')).toBe(
      true,
    );
  });

  it.each(PROVIDERS)(
    'summarize and hardcap, given a history where only a correct cut exists, are blamed for nothing (%s)',
    (provider) => {
      // Between the task and the protected recent turns sit two parallel batches with big results: the only
      // valid cuts are after each batch's results.
      const t = transcript(`
      U Find every caller
      A tu(g1) Grep callers
      A tu(g2) Grep Session
      U tr(g1) 6000 chars
      U tr(g2) 6000 chars
      A tu(g3) Grep token
      A tu(g4) Read session.go
      U tr(g3) 6000 chars
      U tr(g4) 6000 chars
      A tu(x) Bash go vet
      U tr(x) 3000 chars
      A tu(y) Bash go test
      U tr(y) 3000 chars
      A Done.`);
      for (const set of [
        { contextWindow: 3_000, tiersEnabled: false, hardcap: { enabled: false } },
        { contextWindow: 3_000, outputReserve: 0, tiersEnabled: false, summarize: { enabled: false } },
      ]) {
        const o: RunOptions = { set, provider };
        const r = replayFirst(tk, t, o);
        const stages = new Set(r.requests.flatMap((q) => q.events.map((e) => e.stage)));
        expect(stages.has('summarize') || stages.has('hardcap')).toBe(true);
        expect(r.requests.flatMap((q) => q.pairing)).toEqual([]);
      }
    },
  );
});

/** Keeps the file self-checking: the VALID fixture really is valid for every provider. */
describe('fixture', () => {
  it.each(PROVIDERS)('VALID has no violation for %s', (provider) => {
    const m: Message[] = messages(VALID);
    expect(validatePairing(m, ctx(provider, 'input'))).toEqual([]);
  });
});
