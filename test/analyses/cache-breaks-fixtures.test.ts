// Observed cache breaks on every fixture with usage (real, wild, wild2 and the repo's own; issues 16 and 26), each run
// with the settings a user gets from the log (as the CLI): at most 15% of all breaks, of Anthropic's and of each
// format's stay `unexplained`; where the provider reported the cause, Tierscope's inference is kept beside it (Codex rollouts do not hold the exact request, so a best-effort miss there is never proven; what
// their logs do show — an older entry served, a turn's reasoning dropped — explains most); every other break carries
// its divergence point (where there is one) and evidence a reader can check (a line number, a gap, tokens), and the 9e953218 session's
// recurring stop at ≈14.6k tokens is one finding with its tokens and dollars.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import type { Report } from '../../src/analyses/report.ts';
import { parseArgs } from '../../src/cli/args.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { resolveSettings, settingsFor } from '../../src/cli/options.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeReal, describeWild, fixtureInputs, wildPath } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

/** Requests whose input holds no message (`thread#index`): nowhere to place a read. */
const emptyInputs = new Set<string>();

function reportOf(path: string): Report | undefined {
  const r = parseTranscript(fileFromPath(path), companionFiles(path));
  if (!r.ok) throw new Error(r.error);
  const t = r.transcript;
  if (!t.threads.some((th) => th.requests.some((q) => q.observed))) return undefined;
  for (const th of t.threads) for (const q of th.requests) if (q.inputEnd === 0) emptyInputs.add(`${th.id}#${q.index}`);
  const settings = settingsFor(resolveSettings(parseArgs(['analyze', path], [], [])), logDefaults(t));
  return analyze(t, { ...settings, tokenizer: tok }).report;
}

describeReal('observed breaks over every fixture with usage', () => {
  it('at most 15% of all, of Anthropic and of each format’s breaks unexplained; every break has evidence, every explained one a divergence point', () => {
    const byFormat = new Map<string, { breaks: number; unexplained: number }>();
    let breaks = 0;
    let anthropic = 0;
    let unexplained = 0;
    let unexplainedAll = 0;
    const weak: string[] = [];
    for (const f of fixtureInputs()) {
      const report = reportOf(f.path);
      if (!report) continue;
      for (const q of report.requests) {
        const b = q.observedBreak;
        if (!b) continue;
        breaks++;
        const fmt = byFormat.get(report.format) ?? { breaks: 0, unexplained: 0 };
        byFormat.set(report.format, fmt);
        fmt.breaks++;
        if (b.cause === 'unexplained') fmt.unexplained++;
        // The provider's own reason: Tierscope's inference is kept beside it, as evidence.
        if (b.cause.startsWith('reported:') && !/Tierscope's own inference: \S+/.test(b.evidence.join('\n')))
          weak.push(`${f.rel} ${q.thread}#${q.index}`);
        const isAnthropic = report.settings.provider === 'anthropic' || report.settings.provider === 'bedrock';
        if (isAnthropic) anthropic++;
        const text = b.evidence.join('\n');
        if (b.cause === 'unexplained') {
          unexplainedAll++;
          if (isAnthropic) unexplained++;
          // Even what stays unexplained shows what the log does say.
          else if (!/read [\d,]+ of them/.test(text)) weak.push(`${f.rel} ${q.thread}#${q.index}`);
          continue;
        }
        // Checkable: a source line, a clock time or the observed tokens at the divergence point.
        const checkable = /line \d+|\d\d:\d\d:\d\d UTC|read [\d,]+ (tokens|of them)/.test(text);
        // A read of 0 needs no placing (nothing matched), an input without messages has nowhere to place it (a
        // sub-agent file holding only its response); any other read is placed in the input.
        const placed =
          b.divergence !== null || q.observed?.cacheRead === 0 || emptyInputs.has(`${q.thread}#${q.index}`);
        if (!placed || b.evidence.length === 0 || !checkable) weak.push(`${f.rel} ${q.thread}#${q.index}`);
      }
    }
    expect(breaks).toBeGreaterThan(50);
    expect(unexplained / anthropic).toBeLessThanOrEqual(0.15);
    expect(unexplainedAll / breaks).toBeLessThanOrEqual(0.15);
    const over = [...byFormat]
      .filter(([, x]) => x.unexplained / x.breaks > 0.15)
      .map(([fm, x]) => `${fm} ${x.unexplained}/${x.breaks}`);
    expect(over).toEqual([]);
    expect(weak).toEqual([]);
  });
});

describeWild('9e953218: the recurring stop at ≈14.6k tokens', () => {
  const path = wildPath(
    'claude-code/projects/ccl--Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl',
  );
  it('requests 1 and 2 read exactly 14,627 tokens; the shrink of 381 tokens is called out', () => {
    const r = reportOf(path) as Report;
    const at = (i: number) => r.requests.find((q) => q.thread === 'main' && q.index === i)?.observedBreak;
    const b1 = at(1);
    expect(b1?.divergence).toMatchObject({ tokens: 14_627, region: 'unlogged-prefix', messageIndex: 0 });
    // Re-written: the prompt it sent (381 tokens smaller than request 0's 19,367) less its read.
    expect(b1?.tokensLost).toBe(19_367 - 381 - 14_627);
    expect(b1?.evidence.join('\n')).toMatch(/the prompt shrank by 381 tokens \(observed\) although the log only/);
    expect(at(2)?.divergence?.tokens).toBe(14_627);
  });

  it('one finding for requests 1, 2, 35, 68, with tokens and dollars, and advice in the same dollars', () => {
    const r = reportOf(path) as Report;
    const p = r.cacheFindings.patterns.find((x) => x.thread === 'main' && x.requests.includes(1));
    expect(p?.requests).toEqual([1, 2, 35, 68]);
    expect(p).toMatchObject({ region: 'unlogged-prefix', messageIndex: 0, tokensFrom: 14_627, tokensTo: 14_678 });
    const lost = [1, 2, 35, 68].reduce(
      (n, i) => n + (r.requests.find((q) => q.thread === 'main' && q.index === i)?.observedBreak?.tokensLost ?? 0),
      0,
    );
    expect(p?.tokensLost).toBe(lost);
    expect(p?.usd).toBeGreaterThan(0);
    const advice = r.cacheFindings.advice.find((a) => a.kind === 'recurring-rewrite');
    expect(advice?.usd).toBe(p?.usd);
  });
});

describe('the hand-checked breaks', () => {
  it('JSSoundRecorder request 16 names the CLAUDE.md edits (lines 73 and 80 in the raw file) by their messages', () => {
    const r = reportOf(
      wildPath(
        'claude-code/projects/ccl--Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl',
      ),
    ) as Report;
    const b = r.requests.find((q) => q.thread === 'main' && q.index === 16)?.observedBreak;
    expect(b?.cause).toBe('memory-file-edited');
    expect(b?.evidence.join('\n')).toMatch(/CLAUDE\.md edited at lines 71–74; .*CLAUDE\.md edited at lines 78–80/);
  });
});

describeWild('the hand-checked Codex breaks (wild/codex rollouts)', () => {
  const parking = 'codex/parkinglot-rollout-2025-12-06T15-11-37-019af581-86ce-7d23-b9c6-0f99353d36af.jsonl';
  const moon = 'codex/moonmind-rollout-2025-11-13T16-00-16-019a7fa9-a846-7393-8d7a-9997d08b0096.jsonl';
  const at = (r: Report, i: number) => r.requests.find((q) => q.thread === 'main' && q.index === i)?.observedBreak;
  /** The prompt request `i` sent (observed: input + cache read + cache write). */
  const promptAt = (r: Report, i: number) => {
    const o = r.requests.find((q) => q.thread === 'main' && q.index === i)?.observed;
    return o ? o.input + o.cacheRead + o.cacheWrite : Number.NaN;
  };

  it('parkinglot: request 1 reads the 3,072 tokens request 0 read (token_count lines 9, 16): an older entry', () => {
    const r = reportOf(wildPath(parking)) as Report;
    const b1 = at(r, 1);
    expect(b1?.cause).toBe('older-entry');
    expect(b1?.tokensLost).toBe(6479 - 3072);
    expect(b1?.evidence.join('\n')).toMatch(/request 0 was the conversation's first/);
    const b59 = at(r, 59);
    expect(b59?.cause).toBe('older-entry');
    expect(b59?.evidence.join('\n')).toMatch(/the read, 6,016 tokens, is exactly what request 2 \(line 24\) read/);
  });

  it('parkinglot request 33 and moonmind request 38: the previous turn’s reasoning left the prompt', () => {
    const pr = reportOf(wildPath(parking)) as Report;
    const b33 = at(pr, 33);
    expect(b33?.cause).toBe('reasoning-dropped');
    // Re-written: request 33's own prompt (smaller than request 32's 42,657 by the dropped reasoning) less its read.
    expect(promptAt(pr, 33)).toBeLessThan(42_657);
    expect(b33?.tokensLost).toBe(promptAt(pr, 33) - 3072);
    expect(b33?.evidence.join('\n')).toMatch(/requests 0–32\) reported 4,736 reasoning tokens/);
    expect(b33?.evidence.join('\n')).toMatch(/began at 6,479 tokens \(request 0's prompt/);
    const mr = reportOf(wildPath(moon)) as Report;
    const b38 = at(mr, 38);
    expect(b38?.cause).toBe('reasoning-dropped');
    expect(b38?.tokensLost).toBe(Math.min(34_160, promptAt(mr, 38)) - 6016);
    expect(b38?.evidence.join('\n')).toMatch(/requests 0–37\) reported 8,000 reasoning tokens/);
    expect(b38?.evidence.join('\n')).toMatch(/began at 6,666 tokens \(request 1's prompt/);
  });
});
