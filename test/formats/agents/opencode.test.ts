// opencode databases (issue 31), read with sql.js (WebAssembly SQLite): a session with its sub-agent session, a
// database of several sessions read one at a time, a WAL-mode database whose newest session is only in its -wal
// file, and opencode's rules of what the model saw (steps, pruned outputs, errored replies) on small databases made
// here with sql.js.

import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordedCost } from '../../../src/analyses/recorded-cost.ts';
import { nodeSqlite } from '../../../src/cli/sqlite-node.ts';
import { fileFromBytes, parseTranscript } from '../../../src/formats/index.ts';
import { opencodeSessions } from '../../../src/formats/opencode.ts';
import { applyWal, NO_WAL, type SqliteOpener } from '../../../src/formats/sqlite.ts';
import { agentFixture, loadAgent } from '../../helpers/agent-fixtures.ts';
import { dollars } from '../../helpers/independent-cost.ts';

let sqlite: SqliteOpener;
beforeAll(async () => {
  sqlite = await nodeSqlite();
});

/** Dollars of every step-finish part of the database, straight from its rows (opencode's usage rule). */
async function rawDollars(rel: string): Promise<{ usd: number; steps: number }> {
  const SQL = await initSqlJs();
  const wal = (() => {
    try {
      return readFileSync(`${agentFixture(rel)}-wal`);
    } catch {
      return undefined;
    }
  })();
  const db = new SQL.Database(applyWal(readFileSync(agentFixture(rel)), wal).bytes);
  const model = new Map<string, string>();
  for (const [id, data] of db.exec('SELECT id, data FROM message')[0].values)
    model.set(String(id), JSON.parse(String(data)).modelID);
  let usd = 0;
  let steps = 0;
  for (const [mid, data, time] of db.exec('SELECT message_id, data, time_created FROM part')[0].values) {
    const p = JSON.parse(String(data));
    if (p.type !== 'step-finish') continue;
    const t = p.tokens;
    const u = {
      input: t.input,
      output: t.output + t.reasoning,
      cacheRead: t.cache.read,
      write5m: t.cache.write,
      write1h: 0,
    };
    if (u.input + u.output + u.cacheRead + u.write5m === 0) continue;
    usd += dollars(model.get(String(mid)) ?? '', new Date(Number(time)).toISOString(), u) ?? 0;
    steps++;
  }
  db.close();
  return { usd, steps };
}

describe('opencode databases', () => {
  it('one session: its sub-agent session is the sidechain of its task call', () => {
    const t = loadAgent('opencode/one-session/opencode.db', { sqlite });
    expect(t.format).toBe('opencode');
    expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(t.threads.map((th) => [th.kind, th.id])).toEqual([
      ['main', 'ses_pomodoro01'],
      ['sidechain', 'ses_review0001'],
    ]);
    expect(t.threads[1].parentToolUseId).toBe('toolu_task_1');
    const main = t.threads[0];
    main.messages.forEach((m, i) => {
      for (const b of m.blocks)
        if (b.type === 'tool_use')
          expect(main.messages[i + 1].blocks.some((x) => x.type === 'tool_result' && x.toolUseId === b.id)).toBe(true);
    });
    expect(t.meta.title).toBe('Build a Pomodoro timer');
  });

  it('usage per step: input without the cache figures, reasoning billed as output', () => {
    const r = loadAgent('opencode/one-session/opencode.db', { sqlite }).threads[0].requests[1];
    // The chat's second reply: {"input": 7269, "cached": 5811, "output": 46, "thoughts": 58}.
    expect(r.observed).toEqual({ input: 7269 - 5811, cacheRead: 5811, cacheWrite: 0, output: 46 + 58 });
    expect(r.reasoningOutput).toBe(58);
  });

  for (const rel of [
    'opencode/one-session/opencode.db',
    'opencode/three-sessions/opencode.db',
    'opencode/wal/opencode.db',
  ]) {
    it(`${rel}: recorded dollars equal its step-finish parts at the catalog prices`, async () => {
      const ours = recordedCost(loadAgent(rel, { sqlite }), {}).totals;
      const theirs = await rawDollars(rel);
      expect(ours?.priced).toBe(theirs.steps);
      expect(ours?.usd ?? 0).toBeCloseTo(theirs.usd, 6);
    });
  }

  it('a database of several sessions lists its root sessions and reads one at a time', () => {
    const bytes = readFileSync(agentFixture('opencode/three-sessions/opencode.db'));
    const db = sqlite(bytes);
    expect(opencodeSessions(db).map((s) => s.id)).toEqual(['ses_pomodoro01', 'ses_readme0001', 'ses_tests00001']);
    db.close();
    const one = loadAgent('opencode/three-sessions/opencode.db', { sqlite, session: 'ses_readme0001' });
    expect(one.threads.map((th) => th.id)).toEqual(['ses_readme0001']);
    expect(one.meta.title).toBe('Write a README for the timer');
  });

  it('a WAL-mode database: the session committed only to its -wal file is read, the file itself is not changed', () => {
    const before = readFileSync(agentFixture('opencode/wal/opencode.db'));
    const t = loadAgent('opencode/wal/opencode.db', { sqlite });
    expect(t.threads.map((th) => th.id)).toContain('ses_walonly001');
    expect(t.parseIssues.some((i) => /read from opencode\.db-wal/.test(i.message))).toBe(true);
    expect(readFileSync(agentFixture('opencode/wal/opencode.db')).equals(before)).toBe(true);
    // Without its -wal file the database holds only what was checkpointed.
    const alone = parseTranscript(fileFromBytes('opencode.db', before), [], { sqlite });
    expect(alone.ok && alone.transcript.threads.map((th) => th.id)).toEqual(['ses_pomodoro01']);
    // …and says that what was committed since the last checkpoint may be missing.
    expect(alone.ok && alone.transcript.parseIssues.map((i) => i.message)).toContain(NO_WAL);
    // A database not in WAL mode has nothing to say about it.
    const plain = loadAgent('opencode/one-session/opencode.db', { sqlite });
    expect(plain.parseIssues.map((i) => i.message)).not.toContain(NO_WAL);
  });

  it('a torn -wal frame leaves the last commit before it', () => {
    const main = readFileSync(agentFixture('opencode/wal/opencode.db'));
    const wal = readFileSync(agentFixture('opencode/wal/opencode.db-wal'));
    const torn = applyWal(main, wal.subarray(0, wal.length - 10));
    expect(torn.frames).toBe(0);
    expect(applyWal(main, wal).frames).toBeGreaterThan(0);
  });

  it('steps, pruned outputs and errored replies follow opencode’s own conversion', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(
      'CREATE TABLE session (id text, parent_id text, title text, directory text, version text, time_created integer)',
    );
    db.run('CREATE TABLE message (id text, session_id text, time_created integer, data text)');
    db.run('CREATE TABLE part (id text, message_id text, session_id text, data text)');
    db.run("INSERT INTO session VALUES ('ses_1', NULL, 't', '/w', '1', 1000)");
    const msg = (id: string, t: number, data: object) =>
      db.run('INSERT INTO message VALUES (?, ?, ?, ?)', [id, 'ses_1', t, JSON.stringify(data)]);
    const part = (id: string, m: string, data: object) =>
      db.run('INSERT INTO part VALUES (?, ?, ?, ?)', [id, m, 'ses_1', JSON.stringify(data)]);
    const tokens = { input: 100, output: 10, reasoning: 0, cache: { read: 2000, write: 0 } };
    msg('m1', 1000, { role: 'user', time: { created: 1000 } });
    part('p1', 'm1', { type: 'text', text: 'go' });
    msg('m2', 2000, { role: 'assistant', modelID: 'claude-sonnet-4-5', time: { created: 2000 } });
    part('p2', 'm2', { type: 'step-start' });
    part('p3', 'm2', {
      type: 'tool',
      callID: 'c1',
      tool: 'read',
      state: {
        status: 'completed',
        input: { f: 'a' },
        output: 'BIG OUTPUT',
        time: { start: 2000, end: 2100, compacted: 2500 },
      },
    });
    part('p4', 'm2', { type: 'step-finish', tokens });
    part('p5', 'm2', { type: 'step-start' });
    part('p6', 'm2', { type: 'text', text: 'read it' });
    part('p7', 'm2', { type: 'step-finish', tokens });
    msg('m3', 3000, { role: 'user', time: { created: 3000 } });
    part('p8', 'm3', { type: 'text', text: 'again' });
    msg('m4', 3500, {
      role: 'assistant',
      modelID: 'claude-sonnet-4-5',
      time: { created: 3500 },
      error: { name: 'APIError', data: {} },
    });
    part('p9', 'm4', { type: 'step-start' });
    part('pa', 'm4', { type: 'step-finish', tokens });
    msg('m5', 4000, { role: 'assistant', modelID: 'claude-sonnet-4-5', time: { created: 4000 } });
    part('pb', 'm5', { type: 'step-start' });
    part('pc', 'm5', { type: 'text', text: 'done' });
    part('pd', 'm5', { type: 'step-finish', tokens });
    const r = parseTranscript(fileFromBytes('opencode.db', db.export()), [], { sqlite });
    db.close();
    if (!r.ok) throw new Error(r.error);
    const th = r.transcript.threads[0];
    // Two steps of m2 are two requests; the errored m4 is billed apart, not history.
    expect(th.requests).toHaveLength(3);
    expect(th.billedApart).toHaveLength(1);
    expect(th.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    // The read's output was pruned at 2500: the request at 4000 saw it cleared, the one at 2000 in full.
    const cleared = th.requests[2].exactInput?.[2].blocks[0];
    expect(cleared).toMatchObject({ type: 'tool_result', content: '[Old tool result content cleared]' });
    expect(th.requests[1].exactInput).toBeUndefined();
    expect(th.messages[2].blocks[0]).toMatchObject({ content: 'BIG OUTPUT' });
  });
});
