// A scan hands every session's row the same catalog lookups (sessions/scan.ts): a model's entry and its prices at an
// hour are looked up once for the whole folder, and a row made with the shared lookups is the row made without them.
import { expect, it } from 'vitest';
import { rowMemo, sessionRow } from '../../src/sessions/summary.ts';
import { asst, jsonl, load, text, user } from '../helpers/claude-code-lines.ts';

const MODEL = 'claude-sonnet-4-5-20250929';

function session(tag: string) {
  const a = asst(`${tag}-a1`, `${tag}-u1`, `msg_${tag}`, [text('done')]);
  (a.message as { model: string }).model = MODEL;
  return load(jsonl(user(`${tag}-u1`, null, `task ${tag}`), a));
}

const place = (path: string) => ({ path, companions: [], project: 'p', bytes: 0 });

it('looks a model up once per hour across the sessions of a scan, and the rows are unchanged', () => {
  const [one, two] = [session('one'), session('two')];
  const memo = rowMemo();
  const shared = memo.pricings;
  const first = sessionRow(one, place('one.jsonl'), memo);
  expect(shared.size).toBe(1);
  const [key, pricing] = [...shared][0];
  const model = memo.models.get(MODEL);
  const second = sessionRow(two, place('two.jsonl'), memo);
  // The second session's request is in the same hour with the same model: no new lookup, the same one reused;
  // and the model's catalog entry (for the context window) is looked up once too.
  expect(shared.size).toBe(1);
  expect(shared.get(key)).toBe(pricing);
  expect(model).toBeDefined();
  expect(memo.models.get(MODEL)).toBe(model);
  expect(first.usd).toBeGreaterThan(0);
  expect(first).toEqual(sessionRow(one, place('one.jsonl')));
  expect(second).toEqual(sessionRow(two, place('two.jsonl')));
});

it('looks a model priced alike at any time up once for every hour of a log, with the same dollars', () => {
  const hour = (h: number) => ({ timestamp: new Date(Date.UTC(2025, 8, 1, h, 5)).toISOString() });
  const lines = [0, 3, 7, 12].flatMap((h, i) => {
    const a = asst(`a${i}`, `u${i}`, `msg_${i}`, [text(`answer ${i}`)], hour(h));
    (a.message as { model: string }).model = MODEL;
    return [user(`u${i}`, i === 0 ? null : `a${i - 1}`, `question ${i}`, hour(h)), a];
  });
  const t = load(jsonl(...lines));
  const memo = rowMemo();
  const row = sessionRow(t, place('hours.jsonl'), memo);
  expect(t.threads[0].requests).toHaveLength(4);
  expect(memo.pricings.size).toBe(1);
  // Looked up hour by hour (the prices a catalog lists by date would differ), the dollars are the same.
  expect(row.usd).toBe(sessionRow(t, place('hours.jsonl')).usd);
});
