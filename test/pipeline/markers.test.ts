// The exact marker texts of SPEC §4 as pure functions (Kocoro TruncateHeadTail, spill preview format): what
// users grep their logs for, so every byte is pinned here, including rune-safety on CJK and emoji.
import { describe, expect, it } from 'vitest';
import { headRunes, runeCount, tailRunes } from '../../src/lib/runes.ts';
import {
  CLEARED_MARKER,
  elidedObservation,
  headTailCut,
  microCompact,
  spillReplacement,
  stubArgs,
  tier1Stub,
  truncateHeadTail,
} from '../../src/pipeline/markers.ts';
import { emojiFiller } from '../helpers/arbitrary.ts';
import { filler } from '../helpers/dsl.ts';

describe('truncateHeadTail (Kocoro TruncateHeadTail)', () => {
  it('leaves exact-length input unchanged', () => {
    expect(truncateHeadTail('x'.repeat(40), 40)).toBe('x'.repeat(40));
  });

  it('100 → 40 keeps 30 head + 10 tail runes and reports "truncated 60 chars"', () => {
    const s = filler(100);
    expect(truncateHeadTail(s, 40)).toBe(`${s.slice(0, 30)}\n\n[... truncated 60 chars ...]\n\n${s.slice(90)}`);
  });

  it('20 CJK runes → 10 keeps 7 + 2 and reports the nominal 10 chars', () => {
    const s = filler(20, 'cjk');
    expect(truncateHeadTail(s, 10)).toBe(`${headRunes(s, 7)}\n\n[... truncated 10 chars ...]\n\n${tailRunes(s, 2)}`);
  });

  it('never splits a surrogate pair (emoji)', () => {
    const s = emojiFiller(1001);
    const out = truncateHeadTail(s, 301);
    expect(out).toBe(`${headRunes(s, 225)}\n\n[... truncated 700 chars ...]\n\n${tailRunes(s, 75)}`);
    expect(runeCount(out)).toBe(225 + 75 + runeCount('\n\n[... truncated 700 chars ...]\n\n'));
  });

  it('cuts the same where the caller gives the rune count it holds', () => {
    for (const s of [filler(100), filler(20, 'cjk'), emojiFiller(1001), `😀${'\ud800'.repeat(30)}x\udc00😀`])
      for (const cap of [0, 1, 4, 9, 10, 40, 301])
        expect(headTailCut(s, cap, runeCount(s))).toEqual(headTailCut(s, cap));
  });
});

describe('stubs and replacements', () => {
  it('spill: `[Output saved to disk: <pointer> (<N> chars)]`, blank line, `Preview (first <P> chars):`, the runes', () => {
    expect(spillReplacement('toolu_01', 'abcdef', 4)).toBe(
      '[Output saved to disk: tool-results/toolu_01.txt (6 chars)]\n\nPreview (first 4 chars):\nabcd',
    );
    // P = min(preview, N); the pointer is sanitised like Kocoro's safeToolUseID
    expect(spillReplacement('call/../x y', '漢字', 2000)).toBe(
      '[Output saved to disk: tool-results/call_.._x_y.txt (2 chars)]\n\nPreview (first 2 chars):\n漢字',
    );
  });

  it('Tier 1: `[<tool> called with <args ≤100 runes>] → [result: <N> chars, snipped]` (U+2192 arrow)', () => {
    expect(tier1Stub('Bash', { command: 'ls' }, 12)).toBe(
      '[Bash called with {"command":"ls"}] → [result: 12 chars, snipped]',
    );
    const long = { command: '😀'.repeat(120) };
    expect(stubArgs(long)).toBe(`${headRunes(JSON.stringify(long), 100)}...`);
    expect(runeCount(stubArgs(long))).toBe(103);
  });

  it('observation stub, clear marker and the micro-compact prefix clipped to the cap', () => {
    expect(elidedObservation('browser_snapshot', 24000)).toBe(
      '[elided browser observation: browser_snapshot, was 24000 chars]',
    );
    expect(CLEARED_MARKER).toBe('[Old tool result content cleared]');
    expect(microCompact('  ok  ', 300)).toBe('[micro-compact] ok');
    const clipped = microCompact('漢'.repeat(400), 300);
    expect(runeCount(clipped)).toBe(300);
    expect(clipped.startsWith('[micro-compact] 漢')).toBe(true);
  });
});
