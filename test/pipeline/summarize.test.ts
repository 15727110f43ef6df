// Stage 5 — summarize (SPEC §4.5): the oldest turns after the head become one anchored summary with all
// seven sections, items tagged `(req N)`, a previous summary merged (not regenerated); the cut never splits
// a tool pair or a parallel batch (valid for all five providers); the breaker opens after 3 consecutive
// failures for 5 requests; the event names tokens freed, messages summarised, summary size, recent kept.
import { beforeAll, describe, expect, it } from 'vitest';
import { runeCount } from '../../src/lib/runes.ts';
import type { Message, Transcript } from '../../src/model/transcript.ts';
import { PROVIDERS, validatePairing } from '../../src/pairing/validate.ts';
import { SECTION_TITLES } from '../../src/pipeline/artifacts.ts';
import { isPipelineSummary } from '../../src/pipeline/cuts.ts';
import { CachedHttpSummarizer, failingSummarizer } from '../../src/pipeline/summarizer.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { emojiFiller } from '../helpers/arbitrary.ts';
import { transcript } from '../helpers/dsl.ts';
import { type Call, loop } from '../helpers/loop.ts';
import { outputsOf, type RunOptions, replayFirst, spySummarizer, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Summaries alone (no tiers, no hard cap). */
const opts = (set: Record<string, unknown> = {}): RunOptions => ({
  set: { contextWindow: 12_000, outputReserve: 0, tiersEnabled: false, hardcap: { enabled: false }, ...set },
});
const bash = (n: number, result = '3000 chars'): Call => ({ tool: 'Bash', args: `go test ./pkg${n}`, result });
const fillers = (n: number) => Array.from({ length: n }, (_, i) => bash(i));

/** Early reads and edits, then enough output to summarise twice. */
function workSession(): Transcript {
  return loop([
    { tool: 'Read', args: 'src/a.go', result: '3000 chars' },
    { tool: 'Edit', args: 'src/b.go', result: '"ok"' },
    { tool: 'Bash', args: 'go build', result: '"Error: undefined: Session"', error: true },
    ...fillers(30),
  ]);
}

const summaryText = (m: Message) => (m.blocks[0].type === 'text' ? m.blocks[0].text : '');
const summariesIn = (outs: readonly (readonly Message[])[]) =>
  outs.map((o) => o.find(isPipelineSummary)).filter((m): m is Message => m !== undefined);

describe('summary content (SPEC §4.5)', () => {
  it('replaces the oldest turns after the head: the task stays first, the summary second, all seven sections', () => {
    const t = workSession();
    const out = outputsOf(tk, t, opts()).at(-1) ?? [];
    expect(out[0]).toBe(t.threads[0].messages[0]);
    expect(isPipelineSummary(out[1])).toBe(true);
    const text = summaryText(out[1]);
    const titles = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(titles).toEqual(Object.values(SECTION_TITLES));
    expect(titles).toEqual([
      'Session Intent',
      'Files Modified',
      'Files Read',
      'Decisions',
      'Errors',
      'Current State',
      'Next Steps',
    ]);
  });

  it('tags every item with the request that produced it', () => {
    const out = outputsOf(tk, workSession(), opts()).at(-1) ?? [];
    const items = summaryText(out[1])
      .split('\n')
      .filter((l) => l.startsWith('- ') && l !== '- (none)');
    expect(items.length).toBeGreaterThan(0);
    for (const l of items) expect(l).toMatch(/ \(req \d+\)$/);
    const text = summaryText(out[1]);
    expect(text).toContain('## Files Read\n- src/a.go (req 0)');
    expect(text).toContain('## Files Modified\n- src/b.go (req 1)');
    expect(text).toContain('- Error: undefined: Session (req 2)');
  });

  it('merges a previous summary: items of the first summary survive the second', () => {
    const outs = outputsOf(tk, workSession(), opts());
    const summaries = summariesIn(outs).map(summaryText);
    const distinct = [...new Set(summaries)];
    expect(distinct.length).toBeGreaterThanOrEqual(2);
    expect(distinct[0]).toContain('src/a.go (req 0)');
    expect(distinct[0]).toMatch(/^\[Summary #1 /);
    const lastSummary = distinct.at(-1) ?? '';
    expect(lastSummary).toMatch(/^\[Summary #\d+ /);
    expect(lastSummary).not.toMatch(/^\[Summary #1 /);
    for (const item of ['src/a.go (req 0)', 'src/b.go (req 1)', 'Error: undefined: Session (req 2)'])
      expect(lastSummary).toContain(item);
  });

  it('the event names tokens freed, messages summarised, summary size and recent messages kept', () => {
    const t = workSession();
    const r = replayFirst(tk, t, opts());
    const outs = outputsOf(tk, t, opts());
    const ev = r.requests.flatMap((q) => q.events).filter((e) => e.stage === 'summarize');
    expect(ev.length).toBeGreaterThanOrEqual(2);
    for (const e of ev) {
      const m =
        /^summarised (\d+) messages \(freed (\d+) tokens\), summary (\d+) tokens, (\d+) recent messages kept$/.exec(
          e.detail ?? '',
        );
      expect(m, e.detail).not.toBeNull();
      const [, , freed, size, kept] = (m ?? []).map(Number);
      expect(freed).toBe(e.tokensBefore - e.tokensAfter);
      expect(size).toBe(e.tokensAfter);
      expect(e.tokensAfter).toBeLessThan(e.tokensBefore);
      const out = outs[e.request];
      expect(kept).toBe(out.length - e.position - 1); // after the summary, nothing else ran (no hard cap)
    }
  });

  it('a summary is made when read: its runes and tokens, counted from its parts, are its text’s (emoji, CJK)', () => {
    const t = loop([
      { tool: 'Read', args: 'src/😀/読み.go', result: '3000 chars' },
      { tool: 'Edit', args: 'src/b🚀.go', result: '"ok"' },
      { tool: 'Bash', args: 'go build', result: '"Error: 未定義 😀 Session"', error: true },
      ...fillers(30),
    ]);
    const r = replayFirst(tk, t, opts());
    const ev = r.requests.flatMap((q) => q.events).filter((e) => e.stage === 'summarize');
    expect(ev.length).toBeGreaterThanOrEqual(2);
    for (const e of ev) {
      const b = e.after;
      const text = b?.type === 'text' ? b.text : '';
      expect(text).toContain('😀');
      expect(b?.type === 'text' ? b.text : '').toBe(text); // the same text on every read
      expect(e.charsAfter).toBe(runeCount(text));
      expect(e.tokensAfter).toBe(tk.count(text));
      expect(JSON.parse(JSON.stringify(b))).toEqual({ type: 'text', text });
    }
  });

  it('runs only while over the trigger', () => {
    const r = replayFirst(tk, workSession(), opts({ contextWindow: 200_000 }));
    expect(r.requests.flatMap((q) => q.events)).toEqual([]);
  });

  it('after an agent compaction dropped the pipeline summary, the next one does not bring its items back', () => {
    const t = transcript(`
      U Fix the session code
      A tu(r) Read src/old.go
      U tr(r) 3000 chars
      ${Array.from({ length: 20 }, (_, i) => `A tu(a${i}) Bash go test ./a${i}\nU tr(a${i}) 3000 chars`).join('\n')}
      -
      U summary The agent's own summary: old.go was refactored.
      ${Array.from({ length: 16 }, (_, i) => `A tu(b${i}) Bash go test ./b${i}\nU tr(b${i}) 3000 chars`).join('\n')}
      A Done.`);
    const o: RunOptions = { ...opts(), mode: 'recorded' };
    const boundary = replayFirst(tk, t, o).requests.findIndex((q) => q.reset?.reason === 'agent-compaction');
    const outs = outputsOf(tk, t, o);
    const before = summariesIn(outs.slice(0, boundary)).map(summaryText);
    const after = summariesIn(outs.slice(boundary)).map(summaryText);
    expect(before.some((s) => s.includes('src/old.go (req 0)'))).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    for (const s of after) {
      expect(s).toMatch(/^\[Summary #\d+ /);
      expect(s).not.toContain('src/old.go');
    }
  });

  it('the transcript handed to the summarizer is cut rune-safe (no lone surrogates in an emoji session)', () => {
    const http = new CachedHttpSummarizer(new Map());
    const emoji = JSON.stringify(emojiFiller(3_000));
    const t = loop(Array.from({ length: 20 }, (_, i) => ({ ...bash(i), result: emoji })));
    replayFirst(tk, t, { ...opts({ contextWindow: 20_000 }), summarizer: http });
    const prompts = http.pending.filter((p) => p.kind === 'turns').map((p) => p.prompt);
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts)
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(p)).toBe(false);
  });
});

describe('the cut (SPEC §4.5: never separates a tool_use from its result, never splits a batch)', () => {
  // Between the head and the two protected turns sits one parallel batch: the only valid cut is after its
  // results. Cutting after the assistant message would leave three orphan results.
  const t = transcript(`
    U Find every caller
    A tu(g1) Grep callers
    A tu(g2) Grep Session
    A tu(g3) Grep token
    U tr(g1) 4000 chars
    U tr(g2) 4000 chars
    U tr(g3) 4000 chars
    A tu(x) Bash go vet
    U tr(x) 100 chars
    A tu(y) Bash go test
    U tr(y) 100 chars
    A Done.`);

  it.each(PROVIDERS)('the output is valid for %s and the summary folds the whole batch', (provider) => {
    const o: RunOptions = { ...opts({ contextWindow: 3_000 }), provider };
    const r = replayFirst(tk, t, o);
    const ev = r.requests.flatMap((q) => q.events).filter((e) => e.stage === 'summarize');
    expect(ev).toHaveLength(1);
    expect(r.requests.flatMap((q) => q.pairing)).toEqual([]);
    const out = outputsOf(tk, t, o).at(-1) ?? [];
    expect(out.map((m) => (isPipelineSummary(m) ? 'S' : m.role[0]))).toEqual(['u', 'S', 'a', 'u', 'a', 'u']);
    const ctx = { thread: 'main', request: 0, stage: 'summarize', provider };
    expect(validatePairing(out, ctx).filter((v) => v.severity === 'error')).toEqual([]);
  });
});

describe('circuit breaker (SPEC §4.5: breakerFailures 3, breakerCooldown 5 requests)', () => {
  it("after 3 consecutive failures ('fail'), no attempt for the next 5 requests, then it tries again", () => {
    const spy = spySummarizer(failingSummarizer);
    const calls: number[] = [];
    let seen = 0;
    const r = replayFirst(tk, loop(fillers(24)), {
      ...opts({ contextWindow: 6_000, summarizer: 'fail' }),
      summarizer: spy,
      observe: (k) => {
        calls[k] = spy.turnCalls - seen;
        seen = spy.turnCalls;
      },
    });
    const first = calls.indexOf(1);
    expect(first).toBeGreaterThan(0);
    expect(calls.slice(first, first + 3 + 5 + 3)).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(r.requests[first].summarizerError).toBe('summarizer configured to fail');
    expect(r.requests[first + 3].summarizerError).toBeUndefined();
  });
});
