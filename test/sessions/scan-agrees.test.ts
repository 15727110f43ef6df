// `tierscope scan` over the folders from the wild (laid out as ~/.claude/projects, Codex rollouts, Inspect and
// SWE-agent logs) lists every session once, and agrees with `tierscope analyze --json` on each file: the same
// requests, recorded dollars, observed hit rate, observed breaks and pairing errors of the recorded input.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCapture } from '../helpers/cli.ts';
import { describeReal, describeWild, REAL_DIR, realPath, WILD_DIR } from '../helpers/fixtures.ts';
import { orphanAgentFiles, walk } from '../helpers/orphan-agents.ts';

type Row = Record<string, unknown> & { path: string };

describeWild('scan agrees with analyze on every session of the wild folder', () => {
  let rows: Row[] = [];
  let skipped: { path: string }[] = [];
  beforeAll(async () => {
    const r = await runCapture(['scan', WILD_DIR, '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as { sessions: Row[]; skipped: { path: string }[] };
    rows = body.sessions;
    skipped = body.skipped;
  }, 60_000);

  it('lists each session file once, and each sub-agent file whose session file is missing', () => {
    const logs = walk(WILD_DIR).filter((p) => /\.(jsonl|json|eval|traj)$/.test(p));
    const isAgent = (p: string) => p.includes('/subagents/') || /(^|\/)agent-[^/]*\.jsonl$/.test(p);
    const orphans = orphanAgentFiles(WILD_DIR);
    expect(orphans.length).toBeGreaterThan(0);
    const expected = [...logs.filter((p) => !isAgent(p)), ...orphans].sort();
    expect(rows.map((r) => r.path).sort()).toEqual(expected);
    expect(skipped).toEqual([]);
    expect(rows.filter((r) => r.format === 'claude-code')).toHaveLength(14 + orphans.length);
    expect(rows.filter((r) => r.format === 'codex')).toHaveLength(3);
    expect(rows.filter((r) => r.format === 'inspect')).toHaveLength(4);
  });

  it('carries the SPEC §8 keys, with paths relative to the folder and ISO times', () => {
    const keys = ['path', 'sessionId', 'project', 'format', 'start', 'end', 'models', 'requests', 'subagents', 'usd'];
    keys.push('hitRate', 'observedBreaks', 'compactions', 'pairingErrors');
    for (const r of rows) {
      for (const k of keys) expect(r).toHaveProperty(k);
      expect(r.path.startsWith('/')).toBe(false);
      if (r.start !== null) expect(new Date(r.start as string).toISOString()).toBe(r.start);
    }
    const sub = rows.find((r) => r.path.endsWith('ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'));
    expect(sub?.project).toBe('ccl--experiments-worktrees');
    // Its sub-agents: the agent-*.jsonl files in <session>/subagents/ (2.1.x layout).
    const subDir = join(
      WILD_DIR,
      'claude-code/projects/ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents',
    );
    expect(sub?.subagents).toBe(readdirSync(subDir).filter((f) => f.endsWith('.jsonl')).length);
    expect(sub?.companions).toHaveLength(readdirSync(subDir).length);
  });

  it('matches analyze --json per file (requests, USD, hit rate, breaks, input pairing errors)', async () => {
    expect(rows.some((r) => (r.observedBreaks as number) > 0)).toBe(true);
    await expectAgreement(WILD_DIR, rows);
  }, 600_000);

  it('counts the agent compactions the log records (one compact summary each)', () => {
    const pai = rows.find((r) => r.path.startsWith('claude-code/projects/paismart--'));
    expect(pai?.compactions).toBe(countLines(join(WILD_DIR, pai?.path ?? ''), /"subtype":"compact_boundary"/));
    expect(pai?.compactions).toBe(1);
  });
});

function countLines(path: string, re: RegExp): number {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => re.test(l)).length;
}

async function expectAgreement(dir: string, list: Row[]): Promise<void> {
  for (const r of list) {
    const a = await runCapture(['analyze', join(dir, r.path), '--json']);
    expect(a.code, r.path).toBe(0);
    const report = JSON.parse(a.out) as Report;
    const want = {
      path: r.path,
      requests: report.counts.requests,
      usd: report.totals.cost.recorded?.usd ?? null,
      hitRate: report.totals.observed?.hitRate ?? null,
      observedBreaks: report.totals.cacheBreaksObserved,
      pairingErrors: report.pairing.filter((v) => v.stage === 'input' && v.severity === 'error').length,
      pairingWarnings: report.pairing.filter((v) => v.stage === 'input' && v.severity === 'warning').length,
    };
    const { path, requests, usd, hitRate, observedBreaks, pairingErrors, pairingWarnings } = r;
    expect({ path, requests, usd, hitRate, observedBreaks, pairingErrors, pairingWarnings }).toEqual(want);
  }
}

describeReal('scan agrees with analyze on the real fixtures (pairing errors, compactions)', () => {
  let rows: Row[] = [];
  beforeAll(async () => {
    const r = await runCapture(['scan', REAL_DIR, '--json']);
    expect(r.code).toBe(0);
    rows = (JSON.parse(r.out) as { sessions: Row[] }).sessions;
  }, 60_000);

  it('matches analyze --json per file, pairing errors of the recorded input included', async () => {
    expect(rows.some((r) => (r.pairingErrors as number) > 0)).toBe(true);
    await expectAgreement(REAL_DIR, rows);
  }, 600_000);

  it('counts every Codex `compacted` line as one compaction', () => {
    const codex = rows.find((r) => r.path === 'codex/synthetic-agentsessions-codex-itemtypes.jsonl');
    expect(codex?.compactions).toBe(countLines(realPath(codex?.path ?? ''), /"type":"compacted"/));
    expect(codex?.compactions).toBe(6);
  });
});
