// `tierscope scan` as a person and other tools use it: --ndjson and --csv carry the same rows as --json,
// --since/--until keep the sessions that overlap those local days, hostile file names and titles cannot steer
// the terminal, and bad arguments exit 2 with a one-line reason.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';

/** Raw ESC, BEL and RIGHT-TO-LEFT OVERRIDE: none may reach the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const STEERING = /[\u001b\u0007\u202e]/;

type Row = { path: string; start: string | null; end: string | null; usd: number | null; title: string | null };

describeWild('scan output modes and date filters over the wild folder', () => {
  let rows: Row[] = [];
  beforeAll(async () => {
    rows = (JSON.parse((await runCapture(['scan', WILD_DIR, '--json'])).out) as { sessions: Row[] }).sessions;
  }, 60_000);

  it('--ndjson prints one JSON row per session, the same rows as --json', async () => {
    const r = await runCapture(['scan', WILD_DIR, '--ndjson']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n').map((l) => JSON.parse(l) as Row);
    expect(lines).toEqual(rows);
  });

  it('--csv prints a header and one line per session', async () => {
    const r = await runCapture(['scan', WILD_DIR, '--csv']);
    const lines = r.out.split('\n');
    expect(lines[0].startsWith('path,sessionId,project,format,start,end,models,requests,subagents,usd,hitRate')).toBe(
      true,
    );
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(rows.map((x) => x.path));
  });

  it('--since/--until keep the sessions that overlap those local days', async () => {
    const r = await runCapture(['scan', WILD_DIR, '--json', '--since', '2025-11-01', '--until', '20251231']);
    const kept = (JSON.parse(r.out) as { sessions: Row[] }).sessions.map((x) => x.path).sort();
    const from = new Date(2025, 10, 1).getTime();
    const to = new Date(2026, 0, 1).getTime();
    const want = rows
      .filter((x) => x.start !== null && x.end !== null && Date.parse(x.end) >= from && Date.parse(x.start) < to)
      .map((x) => x.path)
      .sort();
    expect(want.length).toBeGreaterThan(3);
    expect(want.length).toBeLessThan(rows.length);
    expect(kept).toEqual(want);
  });

  it('the table prints a row per session, per-day totals and the total in dollars', async () => {
    const r = await runCapture(['scan', WILD_DIR]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^${rows.length} sessions in `));
    const total = rows.reduce((n, x) => n + (x.usd ?? 0), 0);
    expect(r.out).toContain(`total $${total.toFixed(2)} recorded over ${rows.length} sessions`);
    expect(r.out).toMatch(/\nday +sessions +requests +USD +hit\n/);
  });
});

describe('scan arguments and hostile names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-scan-'));
  const line = (o: object) => JSON.stringify(o);
  beforeAll(() => {
    const project = join(dir, '-evil\u001b]52;c;QUFB\u0007proj');
    mkdirSync(project);
    const session = [
      line({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's1',
        timestamp: '2025-05-01T10:00:00.000Z',
        message: { role: 'user', content: 'fix \u202eit\u001b[2J now' },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        sessionId: 's1',
        timestamp: '2025-05-01T10:00:05.000Z',
        requestId: 'req_1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'text', text: 'done' }],
          usage: { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 },
        },
      }),
    ];
    writeFileSync(join(project, 's1.jsonl'), `${session.join('\n')}\n`);
    writeFileSync(join(project, 'notes.json'), '{"not": "a transcript"}');
  });

  it('escapes control and bidi characters of file names and titles in the table', async () => {
    const r = await runCapture(['scan', dir]);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(STEERING);
    expect(r.out).toContain('\\x1b]52;c;QUFB\\x07proj');
    expect(r.out).toContain('fix \\u202eit\\x1b[2J now');
    expect(r.out).toMatch(/skipped .*notes\.json: Could not recognise/);
  });

  it('keeps the values in --json (escaped as JSON, same strings)', async () => {
    const r = await runCapture(['scan', dir, '--json']);
    const body = JSON.parse(r.out) as { sessions: (Row & { project: string; requests: number })[] };
    expect(body.sessions).toHaveLength(1);
    expect(body.sessions[0].project).toBe('-evil\u001b]52;c;QUFB\u0007proj');
    expect(body.sessions[0].title).toBe('fix \u202eit\u001b[2J now');
    expect(body.sessions[0].requests).toBe(1);
    expect(r.out).not.toMatch(STEERING);
  });

  it('exit 2 for a missing folder, a bad date or two output modes', async () => {
    expect((await runCapture(['scan', join(dir, 'nope')])).err).toMatch(/^tierscope: no such folder/);
    const bad = await runCapture(['scan', dir, '--since', '2025-13-40']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a date/);
    expect((await runCapture(['scan', dir, '--json', '--csv'])).code).toBe(2);
    expect((await runCapture(['scan'])).err).toMatch(/scan needs a folder/);
  });
});
