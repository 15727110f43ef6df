// fast-check generators of random VALID agent transcripts (and of pipeline configs) for the property
// tests of SPEC §4: a user task, then turns of 1–4 parallel tool calls (Read, Grep, Bash, browser_* …)
// with result sizes from a few runes to over the spill threshold, in prose, CJK or emoji; occasional
// plain user messages; optionally one agent compaction boundary. Sessions are plain data rendered to the
// line DSL, so a shrunk counterexample prints as DSL text that pastes straight into a regression test.
import fc from 'fast-check';
import type { Block, Transcript } from '../../src/model/transcript.ts';
import { type PresetId, presetConfig } from '../../src/pipeline/presets.ts';
import { blockTokens, messageTokens } from '../../src/tokens/block-text.ts';
import type { Tokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from './dsl.ts';

type ContentKind = 'chars' | 'cjk' | 'emoji';
type GenCall = { tool: string; args: string; size: number; kind: ContentKind; error: boolean };
type GenStep =
  | { kind: 'turn'; text: string | null; thinking: boolean; reversed: boolean; calls: GenCall[] }
  | { kind: 'user'; reply: string | null; text: string }
  | { kind: 'summary'; text: string };
export type GenSession = { task: string; steps: GenStep[] };

const GEN_TOOLS = [
  'Read',
  'Grep',
  'Bash',
  'Glob',
  'Edit',
  'browser_navigate',
  'mcp__pw__browser_snapshot',
  'screenshot',
  'WebFetch',
] as const;

/** Deterministic emoji-heavy filler of exactly `runes` code points (surrogate pairs mixed with ASCII). */
export function emojiFiller(runes: number): string {
  let s = '';
  for (let i = 0; i < runes; i++) s += i % 4 === 3 ? ' ' : String.fromCodePoint(0x1f600 + ((i * 5) % 70));
  return s;
}

function argsFor(tool: string, n: number, long: boolean): string {
  const tail = long ? `/${'deep/'.repeat(30)}` : '';
  if (tool === 'Read' || tool === 'Edit') return `src/mod${n}${tail}/file${n}.ts`;
  if (tool === 'Grep' || tool === 'Glob') return `needle${n}${tail}`;
  if (tool === 'Bash') return `npm test -- case${n}${tail}`;
  return `{"url":"https://example.com/p${n}${tail}"}`;
}

// Sizes from a palette around every threshold (Tier-2 cap 300, summary minimum 2,000, aggregate minimum
// 5,000, spill 50,000): boundaries are where bugs live, and a palette lets the hash-keyed token cache make
// hundreds of runs cheap. CJK and emoji stay ≤ 8,000 runes (their exact BPE count is the slow part).
const SMALL = [1, 3, 40, 120, 299, 301, 400];
const MEDIUM = [900, 1_999, 2_001, 2_500, 3_000, 4_999];
const LARGE = [5_000, 8_000, 20_000];
const HUGE = [49_999, 50_000, 50_001, 52_000];

const sizeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SMALL) },
  { weight: 5, arbitrary: fc.constantFrom(...MEDIUM) },
  { weight: 2, arbitrary: fc.constantFrom(...LARGE) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
);

const callArb: fc.Arbitrary<GenCall> = fc.record({
  tool: fc.constantFrom(...GEN_TOOLS),
  args: fc.tuple(fc.nat(99), fc.boolean()).map(([n, long]) => `${n}:${long ? 'long' : ''}`),
  size: sizeArb,
  kind: fc.constantFrom<ContentKind>('chars', 'chars', 'cjk', 'emoji'),
  error: fc.integer({ min: 0, max: 9 }).map((e) => e === 0),
});

const words = fc.constantFrom('check the tests', 'now fix the parser', 'Let me read the config', 'ok', 'continue');

const turnArb: fc.Arbitrary<GenStep> = fc.record({
  kind: fc.constant('turn' as const),
  text: fc.option(words, { nil: null }),
  thinking: fc.boolean(),
  reversed: fc.boolean(),
  calls: fc.array(callArb, { minLength: 1, maxLength: 4 }),
});

const userArb: fc.Arbitrary<GenStep> = fc.record({
  kind: fc.constant('user' as const),
  reply: fc.option(words, { nil: null }),
  text: words,
});

/** Random valid sessions: 1–`maxSteps` steps, mostly tool turns, at most one agent summary boundary. */
export function sessionArb(maxSteps = 30): fc.Arbitrary<GenSession> {
  return fc
    .record({
      task: fc.constantFrom('Refactor internal/auth/session.go', '修复登录页面的错误', 'Fix the flaky test 🧪'),
      steps: fc.array(fc.oneof({ weight: 8, arbitrary: turnArb }, { weight: 1, arbitrary: userArb }), {
        minLength: 1,
        maxLength: maxSteps,
        size: 'max',
      }),
      summaryAt: fc.uniqueArray(fc.nat(), { maxLength: 2 }),
    })
    .map(({ task, steps, summaryAt }) => {
      if (steps.length < 2) return { task, steps };
      const at = new Set(summaryAt.map((n) => 1 + (n % (steps.length - 1))));
      const out: GenStep[] = [];
      steps.forEach((step, i) => {
        if (at.has(i)) out.push({ kind: 'summary', text: `Earlier (${i}): read the config and fixed the parser` });
        out.push(step);
      });
      return { task, steps: out };
    });
}

function resultSpec(c: GenCall): string {
  const kind = c.size > 8_000 ? 'chars' : c.kind;
  if (kind === 'emoji') return JSON.stringify(emojiFiller(c.size));
  return `${c.size} ${kind}`;
}

function toolArgs(c: GenCall): string {
  const [n, long] = c.args.split(':');
  return argsFor(c.tool, Number(n), long === 'long');
}

/** The DSL text of a generated session (tool ids `g<step>_<k>`). */
function sessionDsl(s: GenSession): string {
  const lines = [`U ${s.task}`];
  s.steps.forEach((step, i) => {
    if (step.kind === 'summary') {
      lines.push('-', `U summary ${step.text}`);
      return;
    }
    if (step.kind === 'user') {
      if (step.reply) lines.push('-', `A ${step.reply}`);
      lines.push('-', `U ${step.text}`);
      return;
    }
    lines.push('-');
    if (step.thinking) lines.push(`A think weighing step ${i}`);
    if (step.text) lines.push(`A ${step.text}`);
    step.calls.forEach((c, k) => {
      lines.push(`A tu(g${i}_${k}) ${c.tool} ${toolArgs(c)}`);
    });
    lines.push('-');
    const order = step.calls.map((c, k) => ({ c, k }));
    if (step.reversed) order.reverse();
    for (const { c, k } of order) lines.push(`U tr${c.error ? '!' : ''}(g${i}_${k}) ${resultSpec(c)}`);
  });
  lines.push('-', 'A Done.');
  return lines.join('\n');
}

export function sessionTranscript(s: GenSession): Transcript {
  return transcript(sessionDsl(s));
}

/** Small-window overrides for a preset, so every stage of it fires on short generated sessions. */
export type GenConfig = { preset: PresetId; set: Record<string, unknown> };

export function configArb(presets: readonly PresetId[]): fc.Arbitrary<GenConfig> {
  return fc
    .record({
      preset: fc.constantFrom(...presets),
      contextWindow: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1_000, max: 30_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 30_000, max: 400_000 }) },
      ),
      reserve: fc.double({ min: 0, max: 0.3, noNaN: true }),
      tier3Window: fc.integer({ min: 1, max: 8 }),
      tier1Extra: fc.integer({ min: 0, max: 12 }),
      observationWindow: fc.integer({ min: 0, max: 4 }),
      floorScope: fc.constantFrom('block', 'message'),
      summarizer: fc.constantFrom('extractive', 'extractive', 'fail'),
      attempts: fc.integer({ min: 0, max: 3 }),
      minRecentTurns: fc.integer({ min: 0, max: 3 }),
      keepRecent: fc.integer({ min: 0, max: 6 }),
      clearAtLeast: fc.constantFrom(0, 0, 50, 2_000),
      spill: fc.record({
        spillThreshold: fc.integer({ min: 300, max: 50_000 }),
        spillPreview: fc.integer({ min: 0, max: 2_000 }),
        batchAggregateTarget: fc.integer({ min: 1_000, max: 200_000 }),
        minAggregateSpill: fc.integer({ min: 0, max: 5_000 }),
      }),
    })
    .map((c) => {
      const base = presetConfig(c.preset);
      const set: Record<string, unknown> = {
        contextWindow: c.contextWindow,
        outputReserve: Math.floor(c.contextWindow * c.reserve),
        tier3Window: c.tier3Window,
        tier1Distance: c.tier3Window + c.tier1Extra,
        floorScope: c.floorScope,
        summarizer: c.summarizer,
        summaryAttemptsPerPass: c.attempts,
        hardcap: { minRecentTurns: c.minRecentTurns },
      };
      if (base.microcompact.enabled) set.microcompact = { keepRecent: c.keepRecent, clearAtLeast: c.clearAtLeast };
      // Only tighten what the preset has switched on: `none` must stay a no-op, sliding-window never spills.
      if (base.observationWindow <= 3) set.observationWindow = c.observationWindow;
      if (base.spillThreshold <= 50_000) Object.assign(set, c.spill);
      return { preset: c.preset, set };
    });
}

/** A copy with a small system prompt (a counted static prefix) whose first request carries observed usage
 *  ≈ `factor` × its counted prompt, so the replay's calibration factor is ≈ `factor` — decisions then use
 *  calibrated, not counted, tokens — and every prefix of the transcript calibrates the same (the replay cut at
 *  request k must see the same factor as the full one). Factor 1 returns the transcript unchanged. */
export function withCalibration(t: Transcript, tk: Tokenizer, factor: number): Transcript {
  if (factor === 1) return t;
  const system: Block[] = [{ type: 'text', text: 'You are a careful coding agent. Use the tools you are given.' }];
  const prefixTokens = system.reduce((n, b) => n + blockTokens(tk, b), 0);
  return {
    ...t,
    threads: t.threads.map((th) => {
      const first = th.requests[0];
      if (!first) return th;
      let counted = prefixTokens;
      for (const m of th.messages.slice(0, first.inputEnd)) counted += messageTokens(tk, m);
      const observed = { input: Math.round(counted * factor), cacheRead: 0, cacheWrite: 0, output: 10 };
      // The system prompt as a request log holds it (exactPrefix): the whole prefix is known, so the factor is
      // observed / counted (calibration.ts), not a ratio beside an unlogged offset.
      const exactPrefix = { system };
      const requests = th.requests.map((r, i) => (i === 0 ? { ...r, observed, exactPrefix } : { ...r, exactPrefix }));
      return { ...th, prefix: { ...th.prefix, system }, requests };
    }),
  };
}
