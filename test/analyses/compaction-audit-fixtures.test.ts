// The compaction audit on real logs, checked by hand against the raw lines. 24a90d02 (Claude Code 2.0.57) compacts
// once, automatically (line 346: compact_boundary, preTokens 126389; line 347: the isCompactSummary message). Before
// it the agent edited server.ts (lines 40–60), voice-setup-backup.md (66) and wrote a session checkpoint (310) — the
// summary names all three; it read voices.json (18), three session files (307, 336, 337) and a research file (338)
// — the summary names none of them ("Read session files from ~/.claude/history/sessions/2025-12/"); its one error
// result (316, "Shell 49a4cf is not running…") is not in the summary; the last TodoWrite (135) has no open item.
// After it the agent re-read the three session files (lines 364–366): three re-fetches of lost paths.
import { beforeAll, expect, it } from 'vitest';
import { analyze, newCache } from '../../src/analyses/analyze.ts';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import { withLogDefaults } from '../../src/analyses/settings-origin.ts';
import { formatSummary } from '../../src/cli/summary.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeReal, describeWild, loadReal, loadWild } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const REL =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';
const HOME = '/Users/pretor/.claude';

function audit(t: Transcript) {
  const d = logDefaults(t);
  return analyze(t, {
    config: withLogDefaults(presetConfig('seeds'), d),
    preset: 'seeds',
    mode: 'recorded',
    provider: d.provider.value,
    tokenizer: tk,
  });
}

describeWild('compaction audit on 24a90d02 (one auto compaction, hand-checked)', () => {
  it('finds the compaction with what its boundary recorded', () => {
    const a = audit(loadWild(REL));
    expect(a.report.compactions?.map((c) => c.source)).toEqual(['agent']);
    const c = a.report.compactions?.[0];
    expect(c).toMatchObject({
      thread: 'main',
      trigger: 'auto',
      preTokens: 126389,
      preTokensBasis: 'recorded',
      line: 346,
    });
    expect(c?.span).toMatchObject({ from: 0, firstRequest: 0 });
    expect(c?.summaryTokens).toBeGreaterThan(2000);
  });

  it('the summary keeps the three modified files and loses every file only read, the error string', () => {
    const c = audit(loadWild(REL)).report.compactions?.[0];
    const p = c?.probes;
    expect(p?.filesModified.kept.map((x) => [x.text, x.match, x.line])).toEqual([
      [`${HOME}/voice-server/server.ts`, 'exact', 59],
      [`${HOME}/config/voice-setup-backup.md`, 'exact', 65],
      [`${HOME}/history/sessions/2025-12/2025-12-03-175900_SESSION_voice-system-setup.md`, 'exact', 309],
    ]);
    expect(p?.filesModified.lost).toEqual([]);
    expect(p?.filesRead.kept).toEqual([]);
    expect(p?.filesRead.lost.map((x) => [x.text, x.tool])).toEqual([
      [`${HOME}/voice-server/voices.json`, 'Read'],
      [`${HOME}/history/sessions/2025-12/2025-12-03-120616_SESSION_general-work.md`, 'Read'],
      [`${HOME}/history/sessions/2025-12/2025-12-03-114354_SESSION_general-work.md`, 'Read'],
      [`${HOME}/history/sessions/2025-12/2025-12-03-114730_SESSION_general-work.md`, 'Read'],
      [`${HOME}/history/research/2025-12/2025-12-03_Brand-Guide-Entwicklung-Solo-Preneur.md`, 'Read'],
    ]);
    expect(p?.errors.lost.map((x) => [x.text, x.tool])).toEqual([
      ['Shell 49a4cf is not running, so cannot be killed (status: killed)', 'KillShell'],
    ]);
    expect(p?.todos).toEqual({ kept: [], lost: [] });
    // The three latest typed instructions are quoted in its "All user messages" section.
    expect(p?.instructions.lost).toEqual([]);
    expect(p?.instructions.kept.map((x) => x.text.slice(0, 20))).toEqual([
      'Nur Stille. System T',
      'Kannst du bitte sich',
      'welche learnings und',
    ]);
    // Tierscope's anchored summary of the same span names every file and the error, but no identifier.
    expect(c?.anchoredProbes.filesRead.lost).toEqual([]);
    expect(c?.anchoredProbes.errors.lost).toEqual([]);
    expect(c?.anchoredProbes.identifiers.kept).toEqual([]);
  });

  it('after it, the agent re-read the three session files it lost: counted and priced', () => {
    const a = audit(loadWild(REL));
    const after = a.report.compactions?.[0].refetchesAfter;
    const session = (stamp: string) => `${HOME}/history/sessions/2025-12/2025-12-03-${stamp}_SESSION_general-work.md`;
    expect(after?.items.map((x) => [x.why, x.lostItem])).toEqual([
      ['repeat', session('114354')],
      ['repeat', session('114730')],
      ['repeat', session('120616')],
    ]);
    const tokensOf = (id: string) => a.report.toolResults.find((r) => r.toolUseId === id)?.tokens ?? Number.NaN;
    expect(after?.tokens).toBe(after?.items.reduce((n, x) => n + tokensOf(x.toolUseId), 0));
    // Opus 4.5 writes at $6.25 per million.
    expect(after?.usd).toBeCloseTo(((after?.tokens ?? 0) * 6.25) / 1e6, 8);
    // They land in the task of "welche learnings …" (the request the compaction interrupted).
    const task = a.report.tasks?.find((t) => t.instruction.startsWith('welche learnings'));
    expect(task?.recorded.refetchTokens).toBe(after?.tokens);
    expect(a.report.tasks?.reduce((n, t) => n + t.recorded.refetchTokens, 0)).toBe(after?.tokens);
  });

  it('on a warm run cache, a new price re-prices the kept compaction’s re-fetches (as a fresh cache does)', () => {
    const t = loadWild(REL);
    const d = logDefaults(t);
    const cache = newCache(t, tk);
    const run = (writeMultiplier: number | null, c = cache) =>
      analyze(t, {
        config: {
          ...withLogDefaults(presetConfig('seeds'), d),
          cache: { ...presetConfig('seeds').cache, writeMultiplier },
        },
        preset: 'seeds',
        mode: 'recorded',
        provider: d.provider.value,
        tokenizer: tk,
        cache: c,
      }).report.compactions?.[0].refetchesAfter;
    const first = run(null);
    const doubled = run(2.5);
    expect(doubled?.tokens).toBe(first?.tokens);
    expect(doubled?.usd).not.toBeCloseTo(first?.usd ?? 0, 8);
    expect(doubled).toEqual(run(2.5, newCache(t, tk)));
    expect(run(null)).toEqual(first);
  });

  it('tokens per task: 17 typed requests; the recording sums its observed usage', () => {
    const t = loadWild(REL);
    const a = audit(t);
    const tasks = a.report.tasks ?? [];
    expect(tasks).toHaveLength(17);
    const observed = t.threads[0].requests.reduce(
      (n, r) =>
        n + (r.observed ? r.observed.input + r.observed.cacheRead + r.observed.cacheWrite + r.observed.output : 0),
      0,
    );
    expect(tasks.reduce((n, x) => n + (x.recorded.tokens ?? 0), 0)).toBe(observed);
    expect(tasks.every((x) => x.recorded.unobserved === 0)).toBe(true);
  });

  it('the CLI summary names the compaction, what it lost and what was re-fetched', () => {
    const t = loadWild(REL);
    const text = formatSummary(t, audit(t).report);
    expect(text).toContain('main req 89 [agent auto] 126.4k tokens before (recorded)');
    expect(text).toContain('kept: files modified 3/3, files read 0/5, errors 0/1');
    expect(text).toContain('lost errors: Shell 49a4cf is not running, so cannot be killed (status: killed)');
    expect(text).toMatch(/re-fetched after: 3 \(3327 tokens, ≈\$0\.0208\)/);
  });
});

describeReal('compaction audit on the real Codex and Claude Code line-type fixtures', () => {
  it('every Codex `compacted` line is one agent compaction; one with no summary text is unknown, not lost', () => {
    const a = audit(loadReal('codex/synthetic-agentsessions-codex-itemtypes.jsonl'));
    const cs = a.report.compactions ?? [];
    expect(cs.map((c) => [c.source, c.line, c.opaque])).toEqual([
      ['agent', 26, true],
      ['agent', 47, false],
      ['agent', 69, false],
      ['agent', 81, false],
      ['agent', 89, false],
      ['agent', 111, false],
    ]);
    // Line 26 has `message: ""`: nothing to probe, so nothing is called lost.
    expect(Object.values(cs[0].probes).every((p) => p.kept.length + p.lost.length === 0)).toBe(true);
    expect(cs[0].anchoredProbes.instructions.kept.length + cs[0].anchoredProbes.instructions.lost.length).toBe(1);
  });
  it('the Claude Code line-type fixture: a summary off its boundary’s branch says unknown, never a guess', () => {
    // Line 22 is an isCompactSummary line of a sidechain; the boundary (line 21) is on another branch and the
    // second boundary (line 51) has no summary line: one compaction, with no trigger, size or request to name.
    const a = audit(loadReal('claude-code/synthetic-agentsessions-claude-linetypes.jsonl'));
    expect(a.report.compactions?.map((c) => [c.thread, c.line, c.trigger, c.preTokens, c.request])).toEqual([
      ['sidechain:sys1', 22, null, null, null],
    ]);
  });
});
