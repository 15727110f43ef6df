// A followed session read again as it grows (issue 18 item 2) shows exactly what a fresh load of the grown file
// shows: the load summary, every thread's rows, the run (timeline, report totals, events, pairing …) and the
// report, for real fixtures and generated Claude Code sessions with sub-agents, grown at several split points —
// in the middle of a response written over several lines, and between a tool_use and its tool_result.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeLines } from '../../bench/generate.ts';
import { withLogDefaults } from '../../src/analyses/settings-origin.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { EngineApi, LoadFile, LoadSummary, RunResult, RunSettings } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeReal, describeWild, realPath, wildPath } from '../helpers/fixtures.ts';

const enc = new TextEncoder();
const file = (name: string, lines: readonly string[]): LoadFile => ({
  name,
  buffer: enc.encode(lines.length > 0 ? `${lines.join('\n')}\n` : '').buffer as ArrayBuffer,
});

type Session = { name: string; main: string[]; agents: Map<string, string[]> };
/** The files of `s` with its main file cut after `n` lines (sub-agent files cut in proportion). */
function filesAt(s: Session, n: number): LoadFile[] {
  const id = s.name.replace(/\.jsonl$/, '');
  const share = n / s.main.length;
  return [
    file(s.name, s.main.slice(0, n)),
    ...[...s.agents].map(([a, lines]) =>
      file(`${id}/subagents/agent-${a}.jsonl`, lines.slice(0, Math.ceil(lines.length * share))),
    ),
  ];
}

const settings = (summary: LoadSummary, over: Partial<RunSettings['config']> = {}): RunSettings => ({
  preset: 'seeds',
  config: { ...withLogDefaults(presetConfig('seeds'), summary.defaults), ...over },
  mode: 'recorded',
  provider: 'anthropic',
  encoding: 'o200k_base',
});

/** Everything the page reads of a loaded session and its run (timings left out). */
async function shown(engine: EngineApi, summary: LoadSummary, runId: number, over?: Partial<RunSettings['config']>) {
  if (!summary.ok) throw new Error('not loaded');
  const run = (await engine.run(runId, settings(summary, over))) as RunResult;
  if (run.stale) throw new Error('stale');
  const rows: Record<string, unknown> = {};
  for (const t of summary.threads) rows[t.id] = await engine.rows(t.id);
  return {
    summary: { ...summary, loadMs: 0 },
    rows,
    run: { ...run, ms: 0, runId: 0 },
    report: await engine.report(),
  };
}

/** Open `s` at `cuts[0]` lines (follow 'start'), grow it to each later cut ('grow'): each growth shows what a
 *  fresh engine shows for the same files. */
/** One growth: lines before and after, requests it added, requests the run replayed. */
type Growth = { from: number; to: number; added: number; replayed: number };

async function followMatchesFresh(
  s: Session,
  cuts: number[],
  over?: Partial<RunSettings['config']>,
): Promise<Growth[]> {
  let replayed = 0;
  const followed = createEngine({ onReplayed: (n) => (replayed = n) });
  let runId = 0;
  let requests = 0;
  const growths: Growth[] = [];
  for (const [i, n] of cuts.entries()) {
    const grown = await followed.load(filesAt(s, n), undefined, undefined, undefined, i === 0 ? 'start' : 'grow');
    const fresh = createEngine();
    const whole = await fresh.load(filesAt(s, n), undefined);
    if (!grown.ok || !whole.ok) throw new Error(`${s.name} at ${n} lines did not load`);
    const a = await shown(followed, grown, ++runId, over);
    const b = await shown(fresh, whole, 1, over);
    expect(a, `${s.name} grown to ${n} lines`).toEqual(b);
    if (i > 0) growths.push({ from: cuts[i - 1], to: n, added: grown.counts.requests - requests, replayed });
    requests = grown.counts.requests;
  }
  return growths;
}

type Line = { type?: string; message?: { id?: string; content?: unknown } };
const parsed = (l: string): Line => {
  try {
    return JSON.parse(l) as Line;
  } catch {
    return {};
  }
};
const hasBlock = (l: Line, type: string) =>
  Array.isArray(l.message?.content) && (l.message.content as { type?: string }[]).some((b) => b.type === type);

/** Cut points of a Claude Code log: inside a response written over several lines, and between a line with a
 *  tool_use and the next line holding a tool_result; at most `k` of each, spread over the log. */
function claudeCuts(lines: readonly string[], k = 3): { midResponse: number[]; afterToolUse: number[] } {
  const ls = lines.map(parsed);
  const midResponse: number[] = [];
  const afterToolUse: number[] = [];
  for (let i = 1; i < ls.length; i++) {
    const a = ls[i - 1];
    const b = ls[i];
    if (a.type === 'assistant' && b.type === 'assistant' && a.message?.id && a.message.id === b.message?.id)
      midResponse.push(i);
    if (hasBlock(a, 'tool_use') && hasBlock(b, 'tool_result')) afterToolUse.push(i);
  }
  const spread = (xs: number[]) => xs.filter((_, j) => xs.length <= k || j % Math.ceil(xs.length / k) === 0);
  return { midResponse: spread(midResponse), afterToolUse: spread(afterToolUse) };
}

function generated(seed: number, requests: number): Session {
  const agents = new Map<string, string[]>();
  const main = [
    ...claudeCodeLines(4 << 20, seed, {
      maxRequests: requests,
      resultScale: 0.05,
      onAgentLine: (id, line) => agents.set(id, [...(agents.get(id) ?? []), line]),
    }),
  ];
  return { name: `gen-${seed}.jsonl`, main, agents };
}

const ascending = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

describe('a followed session that grows shows what a fresh load shows', () => {
  it('generated Claude Code sessions with sub-agents, grown at any lines (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        async (seed, fractions) => {
          const s = generated(seed, 60);
          const last = s.main.length;
          // Every cut before the last line, so the session grows at least once.
          await followMatchesFresh(
            s,
            ascending([...fractions.map((f) => Math.max(1, Math.floor(f * (last - 1)))), last]),
          );
        },
      ),
      { numRuns: 6, seed: 18 },
    );
  }, 120_000);

  it('a generated session grown inside responses and between a tool_use and its result', async () => {
    const s = generated(7, 80);
    const { midResponse, afterToolUse } = claudeCuts(s.main);
    expect(midResponse.length).toBeGreaterThan(0);
    expect(afterToolUse.length).toBeGreaterThan(0);
    // The session as it stood at each point, then a line or two later (the response completed, the result in).
    const cuts = ascending([...midResponse, ...afterToolUse].flatMap((p) => [p, p + 1, p + 2]));
    const plain = await followMatchesFresh(s, cuts);
    // A small window: the pipeline compacts (tiers, summaries) before and after each growth.
    const compacting = await followMatchesFresh(s, cuts, { contextWindow: 30_000, outputReserve: 2000 });
    // Most small growths went on from the kept replays (their run and the no-pipeline one replayed just the
    // requests they added), which is what the equality above checks.
    for (const growths of [plain, compacting]) {
      const small = growths.filter((g) => g.to - g.from <= 2);
      const kept = small.filter((g) => g.replayed <= 2 * g.added);
      expect(kept.length).toBeGreaterThan(small.length / 2);
    }
  }, 120_000);
});

describeReal('a followed real session that grows shows what a fresh load shows', () => {
  const logs = [
    'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
    'claude-code/synthetic-agentsessions-claude-linetypes.jsonl',
    'codex/synthetic-agentsessions-codex-itemtypes.jsonl',
    'codex/simonw-codex-0.77-homelab.jsonl',
    'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl',
  ];
  for (const rel of logs)
    it(rel, async () => {
      const main = readFileSync(realPath(rel), 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      const s: Session = { name: rel.split('/').pop() ?? rel, main, agents: new Map() };
      const { midResponse, afterToolUse } = claudeCuts(main, 2);
      const fractions = [0.3, 0.6, 0.9].map((f) => Math.max(1, Math.round(f * main.length)));
      await followMatchesFresh(
        s,
        ascending([...fractions, ...midResponse, ...afterToolUse, main.length - 1, main.length]),
        { contextWindow: 40_000, outputReserve: 2000 },
      );
    }, 120_000);
});

describeWild('a followed wild session with agent compactions that grows shows what a fresh load shows', () => {
  it('paismart (Claude Code, compact_boundary summaries)', async () => {
    const rel =
      'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';
    const main = readFileSync(wildPath(rel), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const s: Session = { name: '24a90d02.jsonl', main, agents: new Map() };
    // Just after each compaction and a few lines later (its audit kept while its span is unchanged), and the end.
    const compactions = main.flatMap((l, i) => (l.includes('"compact_boundary"') ? [i + 2] : []));
    expect(compactions.length).toBeGreaterThan(0);
    const cuts = ascending([...compactions.flatMap((c) => [c, c + 2, c + 6]), main.length - 2, main.length]);
    await followMatchesFresh(
      s,
      cuts.filter((n) => n <= main.length),
      { contextWindow: 60_000, outputReserve: 2000 },
    );
  }, 120_000);
});

describe('a growth costs what it appended', () => {
  it('2-line growths of a 300-request session replay only the requests they added', async () => {
    const s = generated(11, 300);
    let replayed = 0;
    const followed = createEngine({ onReplayed: (n) => (replayed += n) });
    const at = s.main.length - 20;
    const first = await followed.load(filesAt(s, at), undefined, undefined, undefined, 'start');
    if (!first.ok) throw new Error('did not load');
    // The session keeps the settings it was opened with, as the page does.
    const run = async (id: number) => {
      const r = await followed.run(id, settings(first, { contextWindow: 60_000, outputReserve: 2000 }));
      if (r.stale) throw new Error('stale');
    };
    await run(1);
    expect(replayed).toBeGreaterThan(300); // the first run replays everything (its run and the no-pipeline one)
    let requests = first.counts.requests;
    const perGrowth: { added: number; replayed: number }[] = [];
    for (let n = at + 2, id = 2; n <= s.main.length; n += 2, id++) {
      const grown = await followed.load(filesAt(s, n), undefined, undefined, undefined, 'grow');
      if (!grown.ok) throw new Error('did not load');
      replayed = 0;
      await run(id);
      perGrowth.push({ added: grown.counts.requests - requests, replayed });
      requests = grown.counts.requests;
    }
    // Each growth replays its new requests twice (the run and the no-pipeline replay its saving is measured
    // against), nothing it had replayed before.
    expect(perGrowth).toEqual(perGrowth.map((g) => ({ added: g.added, replayed: 2 * g.added })));
    expect(perGrowth.some((g) => g.added > 0)).toBe(true);
  });
});

describe('a growth that changes what was replayed starts that thread over', () => {
  it('a prompt appended on an earlier branch (the user rewound the session)', async () => {
    const s = generated(5, 80);
    const ls = s.main.map((l) => JSON.parse(l) as Record<string, unknown>);
    // A user prompt halfway through, sent again from the same parent: the session's active branch is now that one.
    const at = ls.findIndex(
      (l, i) =>
        i > ls.length / 2 && l.type === 'user' && typeof (l.message as { content?: unknown })?.content === 'string',
    );
    expect(at).toBeGreaterThan(0);
    const last = ls[ls.length - 1];
    const rewound = {
      ...ls[at],
      uuid: 'rewound-0000',
      timestamp: new Date(Date.parse(String(last.timestamp)) + 60_000).toISOString(),
      message: { role: 'user', content: 'try again differently' },
    };
    const grown: Session = { ...s, main: [...s.main, JSON.stringify(rewound)] };
    const growths = await followMatchesFresh(grown, [s.main.length - 4, s.main.length, s.main.length + 1], {
      contextWindow: 30_000,
      outputReserve: 2000,
    });
    // The rewind changed the main thread's earlier messages: it was replayed from request 0.
    expect(growths[1].replayed).toBeGreaterThan(2 * Math.max(0, growths[1].added));
  }, 60_000);
});
