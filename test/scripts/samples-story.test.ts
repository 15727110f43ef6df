// What each bundled sample is for still holds with the engine of today (the CLI's report on the file with
// the sample's manifest settings): the 37.1 story's floor and stub at distance ≥ 20 and its after-pipeline
// re-fetch, the cache-break session's observed causes, the pairing bug's provider errors.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import type { SampleManifest } from '../../src/protocol/samples.ts';

const DIR = resolve(import.meta.dirname, '../../public/samples');
const manifest = JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')) as SampleManifest;

async function report(id: string, extra: string[] = []): Promise<Report> {
  const e = manifest.samples.find((s) => s.id === id);
  if (!e) throw new Error(`no sample ${id}`);
  const set = Object.entries(e.set ?? {}).flatMap(([k, v]) => ['--set', `${k}=${JSON.stringify(v)}`]);
  const args = ['analyze', join(DIR, e.file), '--json', '--preset', e.preset ?? 'seeds', ...set, ...extra];
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  expect(err.join('')).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out.join('\n')) as Report;
}

describe('bundled samples', () => {
  it('story-37-1: the Read keeps head and tail at distance ≥ 20, the bash beside it is a stub, and is re-run', async () => {
    const r = await report('story-37-1');
    const read = r.toolResults.find((t) => t.tool === 'Read' && t.messageIndex === 4);
    const sed = r.toolResults.find((t) => t.messageIndex === 6);
    expect(read).toMatchObject({ tier: 2, floor: true, summarized: false });
    expect(read?.distanceAtFirstTouch).toBeGreaterThanOrEqual(20);
    expect(read?.finalChars).toBeLessThan(read?.chars ?? 0);
    expect(sed).toMatchObject({ tool: 'Bash', tier: 1 });
    expect(sed?.distanceAtFirstTouch).toBeGreaterThanOrEqual(20);
    const after = r.refetches.filter((x) => x.kind === 'after-pipeline');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ firstToolUseId: sed?.toolUseId, tool: 'bash' });
    expect(r.requests.filter((q) => q.cacheBreak).map((q) => q.cacheBreak?.cause)).toEqual(['tiers']);
    expect(r.pairing).toEqual([]);
  });

  it('cache-break: observed sidechain, ttl-expired and model-changed breaks', async () => {
    const r = await report('cache-break');
    const causes = r.requests.flatMap((q) => (q.observedBreak ? [q.observedBreak.cause] : [])).sort();
    expect(causes).toEqual(['model-changed', 'sidechain', 'ttl-expired']);
    const ttl = r.requests.find((q) => q.observedBreak?.cause === 'ttl-expired');
    expect(ttl?.observedBreak?.detail).toBe('cache expired: 7 min 12 s since the previous response; TTL 5 min');
    expect(r.counts.threads).toBe(2);
  });

  it('pairing-bug: the provider rejects the summary between tool_use and tool_result', async () => {
    const r = await report('pairing-bug');
    expect(r.pairing.map((v) => [v.rule, v.stage])).toEqual([
      ['missing-result', 'input'],
      ['orphan-result', 'input'],
    ]);
    const openai = await report('pairing-bug', ['--provider', 'openai-chat']);
    expect(openai.pairing.map((v) => v.error).join('\n')).toContain('did not have response messages');
  });
});
