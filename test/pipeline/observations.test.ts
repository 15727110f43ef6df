// Stage 1 — observations (SPEC §4.1; Kocoro observation_window_test): GUI calls beyond the newest
// `observationWindow` have string results replaced by `[elided browser observation: <tool>, was <N> chars]`
// and images by a placeholder; the window counts calls, not messages; idempotent; non-GUI tools untouched.
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_PLACEHOLDER } from '../../src/pipeline/markers.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import {
  asRequestLog,
  type Call,
  loop,
  repeat,
  screenshot,
  type Turn,
  withResult,
  withRetries,
} from '../helpers/loop.ts';
import { allEvents, outputsOf, replayFirst, resultContent, run, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const nav = (n: number): Call => ({
  tool: 'browser_navigate',
  args: `{"url":"https://x.test/${n}"}`,
  result: '3000 chars',
});
const elided = (r: Awaited<ReturnType<typeof run>>) =>
  allEvents(r)
    .filter((e) => e.stage === 'observations')
    .map((e) => e.toolUseId ?? '');

describe('observations (SPEC §4.1)', () => {
  it('exactly N GUI calls → nothing; N+1 → only the oldest', async () => {
    expect(elided(await run(loop([nav(0), nav(1), nav(2)])))).toEqual([]);
    expect(elided(await run(loop([nav(0), nav(1), nav(2), nav(3)])))).toEqual(['t0']);
  });

  it('the window counts calls, not messages: two parallel calls take two slots', async () => {
    const turns: Turn[] = [[nav(0), nav(1)], nav(2), nav(3)];
    expect(elided(await run(loop(turns)))).toEqual(['t0_0']);
  });

  it('a call with no result still takes a slot (it is the oldest, so nothing is elided yet)', async () => {
    const t = transcript(`
      U open the pages
      A tu(a) browser_navigate {"url":"https://x.test/a"}
      -
      U [Request interrupted by user]
      A tu(b) browser_navigate {"url":"https://x.test/b"}
      U tr(b) 3000 chars
      A tu(c) browser_navigate {"url":"https://x.test/c"}
      U tr(c) 3000 chars
      A tu(d) browser_navigate {"url":"https://x.test/d"}
      U tr(d) 3000 chars
      A Done.`);
    expect(elided(await run(t))).toEqual([]);
  });

  it('the stub text is exact and names the tool as it was called (raw MCP name)', async () => {
    const snap: Call = { tool: 'mcp__playwright__browser_snapshot', args: '{}', result: '5000 cjk' };
    const t = loop([snap, nav(1), nav(2), nav(3)]);
    const outs = outputsOf(tk, t);
    expect(resultContent(outs.at(-1) ?? [], 't0')).toBe(
      '[elided browser observation: mcp__playwright__browser_snapshot, was 5000 chars]',
    );
    const t2 = loop([nav(0), nav(1), nav(2), nav(3)]);
    expect(resultContent(outputsOf(tk, t2).at(-1) ?? [], 't0')).toBe(
      '[elided browser observation: browser_navigate, was 3000 chars]',
    );
  });

  it('is idempotent: 8 calls with window 3 elide 5, each once, and their bytes never change afterwards', async () => {
    const t = loop(Array.from({ length: 8 }, (_, i) => nav(i)));
    const r = await run(withRetries(t));
    const ids = elided(r);
    expect(ids).toEqual(['t0', 't1', 't2', 't3', 't4']);
    const outs = outputsOf(tk, t);
    for (const id of ids) {
      const first = outs.findIndex((o) => String(resultContent(o, id)).startsWith('[elided'));
      for (const o of outs.slice(first)) expect(resultContent(o, id)).toBe(resultContent(outs[first], id));
    }
  });

  it('leaves non-GUI tools alone and covers the whole GUI family (screenshot, computer, browser_*, MCP browser)', async () => {
    const bash = repeat(6, { tool: 'Bash', args: 'ls', result: '3000 chars' });
    const gui: Call[] = ['screenshot', 'computer', 'browser_click', 'mcp__pw__browser_type', 'WebFetch'].map(
      (tool) => ({
        tool,
        args: '{}',
        result: '3000 chars',
      }),
    );
    const r = await run(loop([...bash, ...gui, nav(1), nav(2), nav(3)]));
    // GUI calls in order: screenshot t6, computer t7, browser_click t8, mcp t9, then navs t11–t13 (WebFetch t10 is not GUI)
    expect(elided(r)).toEqual(['t6', 't7', 't8', 't9']);
  });

  it('images of GUI results outside the window become placeholders; non-GUI images are untouched', async () => {
    const shots: Call[] = repeat(5, { tool: 'screenshot', args: '{}', result: '10 chars' });
    let t = loop([{ tool: 'Read', args: 'logo.png', result: '10 chars' }, ...shots]);
    for (let i = 0; i < 6; i++) t = withResult(t, `t${i}`, screenshot(`shot ${i}`));
    const out = outputsOf(tk, t).at(-1) ?? [];
    const images = (id: string) => (resultContent(out, id) as { type: string; text?: string }[]).map((b) => b.type);
    expect(images('t0')).toEqual(['text', 'image']); // file_read of an image: not a GUI tool
    expect(resultContent(out, 't1')).toEqual([
      { type: 'text', text: `shot 1: ${'x'.repeat(400)}` },
      { type: 'text', text: IMAGE_PLACEHOLDER },
    ]);
    expect(images('t2')).toEqual(['text', 'text']);
    for (const id of ['t3', 't4', 't5']) expect(images(id)).toEqual(['text', 'image']);
  });

  it('after an agent compaction (a reset) each GUI call is counted once, not twice', async () => {
    const t = transcript(`
      U browse
      A tu(p) browser_navigate {"url":"https://x.test/p"}
      U tr(p) 3000 chars
      -
      U summary Earlier: opened page p
      A tu(a) browser_navigate {"url":"https://x.test/a"}
      U tr(a) 3000 chars
      A tu(b) browser_navigate {"url":"https://x.test/b"}
      U tr(b) 3000 chars
      A tu(c) browser_navigate {"url":"https://x.test/c"}
      U tr(c) 3000 chars
      A tu(d) browser_navigate {"url":"https://x.test/d"}
      U tr(d) 3000 chars
      A Done.`);
    const r = replayFirst(tk, t, { mode: 'recorded' });
    expect(r.requests.some((q) => q.reset?.reason === 'agent-compaction')).toBe(true);
    expect(r.requests.flatMap((q) => q.events.map((e) => e.toolUseId))).toEqual(['a']);
  });

  it('in a request log (every request a reset) each GUI call is counted once: 4 calls, window 3 → the oldest', async () => {
    const t = asRequestLog(loop([nav(0), nav(1), nav(2), nav(3)]), true);
    const r = replayFirst(tk, t);
    expect(r.requests.every((q) => q.reset !== undefined)).toBe(true);
    expect(r.requests.flatMap((q) => q.events.map((e) => e.toolUseId))).toEqual(['t0']);
    expect(resultContent(outputsOf(tk, t).at(-1) ?? [], 't1')).toHaveLength(3000);
  });

  it('a call whose result turns up later is elided once it arrives', async () => {
    const t = transcript(`
      U browse
      A tu(a) browser_navigate {"url":"https://x.test/a"}
      -
      U wait for it
      A tu(b) browser_navigate {"url":"https://x.test/b"}
      U tr(b) 3000 chars
      A tu(c) browser_navigate {"url":"https://x.test/c"}
      U tr(c) 3000 chars
      A tu(d) browser_navigate {"url":"https://x.test/d"}
      U tr(d) 3000 chars
      A late result
      -
      U tr(a) 3000 chars
      A Done.`);
    const r = replayFirst(tk, t);
    const ev = r.requests.flatMap((q) => q.events.map((e) => [q.index, e.toolUseId]));
    expect(ev).toEqual([[5, 'a']]);
  });
});
