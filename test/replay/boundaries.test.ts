// Replay modes (SPEC §3): `recorded` honours the agent's own compaction — after a boundary the input
// restarts from the agent's summary — while `raw` ignores it and runs Tierscope's pipeline over the whole
// history (what-if), without the agent's summary messages.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/model/transcript.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { outputsOf, replayFirst, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** A session the agent compacted itself after two tool turns. */
function compacted(): Transcript {
  return transcript(`
    U Fix the login bug
    A tu(t1) Read src/login.ts
    U tr(t1) 3000 chars
    A tu(t2) Bash npm test
    U tr!(t2) "Error: expected 200, got 401"
    -
    U summary The user wants the login bug fixed; login.ts was read; npm test fails with 401.
    A tu(t3) Edit src/login.ts
    U tr(t3) ok
    A tu(t4) Bash npm test
    U tr(t4) "all tests passed"
    A Done.`);
}

const texts = (out: readonly { blocks: { type: string; text?: string }[] }[]) =>
  out.map((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('|'));

describe('recorded mode honours an agent compaction boundary', () => {
  it('the first request after the boundary resets and its input restarts from the agent summary', () => {
    const t = compacted();
    const r = replayFirst(tk, t, { mode: 'recorded' });
    const after = r.requests.findIndex((q) => q.reset?.reason === 'agent-compaction');
    expect(after).toBe(2);
    const outs = outputsOf(tk, t, { mode: 'recorded' });
    expect(outs[after]).toEqual([t.threads[0].messages[5]]);
    expect(outs[after][0].compaction).toBe('summary');
    const last = outs.at(-1) ?? [];
    expect(last[0].compaction).toBe('summary');
    expect(texts(last).some((x) => x.includes('Fix the login bug'))).toBe(false);
    expect(last).toHaveLength(5);
  });

  it('raw mode ignores the boundary: the whole history, never the agent summary, no reset', () => {
    const t = compacted();
    const r = replayFirst(tk, t, { mode: 'raw' });
    expect(r.requests.slice(1).every((q) => q.reset === undefined)).toBe(true);
    const last = outputsOf(tk, t, { mode: 'raw' }).at(-1) ?? [];
    expect(last.some((m) => m.compaction)).toBe(false);
    expect(last).toHaveLength(9);
    expect(texts(last)[0]).toBe('Fix the login bug');
  });

  it('before the boundary both modes send the same thing', () => {
    const t = compacted();
    const rec = outputsOf(tk, t, { mode: 'recorded' });
    const raw = outputsOf(tk, t, { mode: 'raw' });
    expect(rec.slice(0, 2)).toEqual(raw.slice(0, 2));
    expect(rec[2]).not.toEqual(raw[2]);
  });
});
