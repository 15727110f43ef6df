// Pure helpers behind the views: multi-file ordering (session first, sub-agent files named as on disk),
// keyboard steps, row search, the row a pairing violation names, and the heatmap's geometry.
import { describe, expect, it } from 'vitest';
import type { PairingViolation } from '../../src/pairing/validate.ts';
import { orderFiles } from '../../src/views/app/order-files.ts';
import { bandOf, MAX_BAND, positionAt, usedHeight } from '../../src/views/transcript/draw-heatmap.ts';
import { step } from '../../src/views/transcript/navigation.ts';
import { idIndex, notesFor, pairingByRow, pairingRow } from '../../src/views/transcript/row-notes.ts';
import { matchesOf, shownRows } from '../../src/views/transcript/search.ts';
import { blockWindow } from '../../src/views/transcript/use-notes.ts';
import type { EventRow, Row, RunResult, ToolResultRow, WindowNotes } from '../../worker/api.ts';

const row = (index: number, o: Partial<Row> = {}): Row => ({
  index,
  role: 'user',
  tokens: 10,
  exact: true,
  tools: [],
  toolUseIds: [],
  blockTypes: ['text'],
  preview: '',
  isError: false,
  line: index + 1,
  ...o,
});

describe('orderFiles', () => {
  const f = (name: string) => new File(['{}'], name);
  it('puts the session first and names its agent files as Claude Code 2.1 stores them', () => {
    const out = orderFiles([f('agent-abc.jsonl'), f('agent-abc.meta.json'), f('0a1b.jsonl')]);
    expect(out.map((x) => x.name)).toEqual([
      '0a1b.jsonl',
      '0a1b/subagents/agent-abc.jsonl',
      '0a1b/subagents/agent-abc.meta.json',
    ]);
  });
  it('leaves a single file, and files without a session, as they are', () => {
    expect(orderFiles([f('agent-abc.jsonl')]).map((x) => x.name)).toEqual(['agent-abc.jsonl']);
    expect(orderFiles([f('a.json'), f('b.json')]).map((x) => x.name)).toEqual(['a.json', 'b.json']);
  });
});

describe('step', () => {
  it('moves to the next/previous index, clamping or wrapping', () => {
    expect(step([1, 4, 9], null, 1)).toBe(1);
    expect(step([1, 4, 9], 4, 1)).toBe(9);
    expect(step([1, 4, 9], 9, 1)).toBe(9);
    expect(step([1, 4, 9], 9, 1, true)).toBe(1);
    expect(step([1, 4, 9], 5, -1)).toBe(4);
    expect(step([1, 4, 9], 1, -1, true)).toBe(9);
    expect(step([], 3, 1)).toBeNull();
  });
});

describe('search', () => {
  const rows = [row(0, { preview: 'Hello' }), row(1, { tools: ['Read'] }), row(2, { role: 'assistant' })];
  it('matches preview, tools and role case-insensitively', () => {
    expect(matchesOf(rows, 'hello')).toEqual([0]);
    expect(matchesOf(rows, 'READ')).toEqual([1]);
    expect(matchesOf(rows, 'assistant')).toEqual([2]);
    expect(matchesOf(rows, '  ')).toEqual([0, 1, 2]);
  });
  it('filters only with a query and the filter on', () => {
    expect(shownRows(rows, 'read', false)).toBeNull();
    expect(shownRows(rows, '', true)).toBeNull();
    expect(shownRows(rows, 'read', true)).toEqual([1]);
  });
});

describe('pairingRow', () => {
  const rows = [row(0), row(1, { role: 'assistant', toolUseIds: ['a'] }), row(2, { toolUseIds: ['a'] }), row(3)];
  const v = (messageIndex: number, toolUseId?: string): PairingViolation => ({
    thread: 'main',
    request: 0,
    stage: 'input',
    provider: 'anthropic',
    rule: 'orphan-result',
    severity: 'error',
    messageIndex,
    wireIndex: messageIndex,
    toolUseId,
    error: 'x',
  });
  it('takes the named index when it carries the id, else the nearest row that does', () => {
    const ids = idIndex(rows);
    expect(pairingRow(v(2, 'a'), rows, ids)).toBe(2);
    expect(pairingRow(v(3, 'a'), rows, ids)).toBe(2);
    expect(pairingRow(v(0, 'a'), rows, ids)).toBe(1);
    expect(pairingRow(v(3), rows, ids)).toBe(3);
    expect(pairingRow(v(9), rows, ids)).toBe(-1);
  });
});

describe('notes of the rows shown', () => {
  const rows = [row(0), row(1, { role: 'assistant', toolUseIds: ['a'] }), row(2, { toolUseIds: ['a'] }), row(3)];
  const result = {
    runId: 4,
    pairing: [{ thread: 'main', messageIndex: 3, toolUseId: 'a', rule: 'orphan-result', severity: 'error' }],
  } as unknown as RunResult;
  const res = (messageIndex: number, toolUseId: string) =>
    ({ thread: 'main', messageIndex, toolUseId }) as ToolResultRow;
  const ev = (messageIndex: number, id: number) => ({ thread: 'main', messageIndex, id }) as EventRow;
  const win: WindowNotes = {
    runId: 4,
    thread: 'main',
    from: 0,
    to: 3,
    results: [res(2, 'a'), res(2, 'b')],
    events: [ev(1, 7), ev(2, 3), ev(2, 5)],
    drops: [],
  };
  it('slots the window’s rows by message and the run’s pairing on every row', () => {
    const n = notesFor(result, 'main', rows, win);
    expect(n.get(2)?.results.map((r) => r.toolUseId)).toEqual(['a', 'b']);
    expect(n.get(2)?.events.map((e) => e.id)).toEqual([3, 5]);
    expect(n.get(1)?.events.map((e) => e.id)).toEqual([7]);
    // The violation names message 3 without the id there: the nearest row carrying it (2).
    expect(n.get(2)?.pairing).toHaveLength(1);
    expect(n.get(0)).toBeUndefined();
    expect([...pairingByRow(result, 'main', rows).keys()]).toEqual([2]);
    // Another thread's window adds nothing; without a run or rows there are no notes.
    expect(notesFor(result, 'main', rows, { ...win, thread: 'agent' }).get(1)).toBeUndefined();
    expect(notesFor(undefined, 'main', rows, win).size).toBe(0);
  });
  it('asks for whole blocks of 64 messages around the rows rendered', () => {
    expect(blockWindow(0, 40)).toEqual({ from: 0, to: 64 });
    expect(blockWindow(60, 70)).toEqual({ from: 0, to: 128 });
    expect(blockWindow(64, 127)).toEqual({ from: 64, to: 128 });
    expect(blockWindow(5, 4)).toEqual({ from: 0, to: 0 });
  });
});

describe('heatmap geometry', () => {
  it('gives short transcripts bands of at most MAX_BAND pixels and maps pixels back', () => {
    expect(usedHeight(3, 400)).toBe(3 * MAX_BAND);
    expect(bandOf(1, 3, 400)).toEqual([MAX_BAND, 2 * MAX_BAND]);
    expect(positionAt(MAX_BAND + 1, 3, 400)).toBe(1);
    expect(positionAt(399, 3, 400)).toBe(2);
  });
  it('packs many messages into the strip, every band at least a pixel', () => {
    expect(usedHeight(10_000, 400)).toBe(400);
    const [a, b] = bandOf(5000, 10_000, 400);
    expect(b - a).toBe(1);
    expect(positionAt(0, 10_000, 400)).toBe(0);
    expect(positionAt(400, 10_000, 400)).toBe(9999);
  });
});
