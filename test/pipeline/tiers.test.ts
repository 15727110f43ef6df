import { describe, expect, it } from 'vitest';
import { loop, repeat, type Turn } from '../helpers/loop.ts';
import { allEvents, outputAt, resultContent, run } from '../helpers/replay.ts';

// The 37.1 story: a file_read early in the session, 27+ tool-result messages later, first touched at
// distance ≥ 20. A bash result at the same distance becomes a metadata stub; the read keeps head and tail.
function story(): Turn[] {
  return [
    { tool: 'Bash', args: 'ls internal/auth', result: '3000 chars' },
    { tool: 'Read', args: 'internal/auth/session.go', result: '18000 chars' },
    ...repeat(28, { tool: 'Bash', args: 'go test ./...', result: '3000 chars' }),
  ];
}

const small = { contextWindow: 24_000, outputReserve: 2_000 };

describe('tiers (SPEC §4.3)', () => {
  it('37.1: a file_read first touched at distance ≥ 20 keeps head and tail; a bash result there becomes a stub', async () => {
    const t = loop(story());
    const r = await run(t, { set: small });
    const events = allEvents(r).filter((e) => e.stage === 'tiers');
    const read = events.find((e) => e.toolUseId === 't1');
    const bash = events.find((e) => e.toolUseId === 't0');
    expect(bash?.action).toBe('tier1');
    expect(bash?.distance).toBeGreaterThanOrEqual(20);
    expect(read?.tier).toBe(2);
    expect(read?.action).toBe('tier2-truncate');
    expect(read?.distance).toBeGreaterThanOrEqual(20);
    const last = t.threads[0].requests.length - 1;
    const out = await outputAt(t, last, { set: small });
    const readOut = resultContent(out, 't1') as string;
    const original = resultContent(t.threads[0].messages, 't1') as string;
    expect(readOut.startsWith(original.slice(0, 200))).toBe(true);
    expect(readOut.endsWith(original.slice(-70))).toBe(true);
    expect(readOut).toContain('[... truncated 17700 chars ...]');
    expect(resultContent(out, 't0')).toBe(
      '[Bash called with {"command":"ls internal/auth"}] → [result: 3000 chars, snipped]',
    );
  });

  it('parallel results in one message share one distance', async () => {
    const turns: Turn[] = [
      [
        { tool: 'Bash', args: 'a', result: '3000 chars' },
        { tool: 'Bash', args: 'b', result: '3000 chars' },
        { tool: 'Read', args: 'x.ts', result: '3000 chars' },
      ],
      ...repeat(32, { tool: 'Bash', args: 'go test', result: '3000 chars' }),
    ];
    const r = await run(loop(turns), { set: small });
    const ev = allEvents(r).filter((e) => e.stage === 'tiers' && e.toolUseId?.startsWith('t0_'));
    expect(ev).toHaveLength(3);
    expect(new Set(ev.map((e) => e.distance)).size).toBe(1);
    expect(ev.map((e) => e.tier)).toEqual([1, 1, 2]);
  });

  it('sessions with fewer tool-result messages than the Tier-3 window are never tiered', async () => {
    const turns = repeat(7, { tool: 'Bash', args: 'x', result: '40000 chars' });
    const r = await run(loop(turns), {
      set: {
        contextWindow: 20_000,
        outputReserve: 1000,
        summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
        hardcap: { enabled: false, minRecentTurns: 2, keepLastMessages: null },
      },
    });
    expect(allEvents(r).filter((e) => e.stage === 'tiers')).toHaveLength(0);
  });

  it('a Tier-2 result later at distance ≥ 20 keeps its bytes (no conveyor belt)', async () => {
    const t = loop(repeat(40, { tool: 'Bash', args: 'go test', result: '2500 chars' }));
    const r = await run(t, {
      set: {
        contextWindow: 20_000,
        outputReserve: 1000,
        summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
        hardcap: { enabled: false, minRecentTurns: 2, keepLastMessages: null },
      },
    });
    const tiers = allEvents(r).filter((e) => e.stage === 'tiers');
    const tier2 = tiers.filter((e) => e.tier === 2).map((e) => e.toolUseId);
    expect(tier2.length).toBeGreaterThan(0);
    // each result is rewritten at most once, whatever its later distance
    const counts = new Map<string, number>();
    for (const e of tiers) counts.set(e.toolUseId ?? '', (counts.get(e.toolUseId ?? '') ?? 0) + 1);
    expect(Math.max(...counts.values())).toBe(1);
    const last = t.threads[0].requests.length - 1;
    const out = await outputAt(t, last, {
      set: {
        contextWindow: 20_000,
        outputReserve: 1000,
        summarize: { enabled: false, breakerFailures: 3, breakerCooldown: 5 },
        hardcap: { enabled: false, minRecentTurns: 2, keepLastMessages: null },
      },
    });
    const firstTier2 = tier2[0] ?? '';
    expect(String(resultContent(out, firstTier2))).toContain('[micro-compact] ');
  });
});
