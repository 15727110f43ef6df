// A scan hands every session's row the same price lookups (sessions/scan.ts): a model's prices at an hour are looked
// up in the catalog once for the whole folder, and a row made with the shared lookups is the row made without them.
import { expect, it } from 'vitest';
import { sessionRow } from '../../src/sessions/summary.ts';
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
  const shared = new Map();
  const first = sessionRow(one, place('one.jsonl'), shared);
  expect(shared.size).toBe(1);
  const [key, pricing] = [...shared][0];
  const second = sessionRow(two, place('two.jsonl'), shared);
  // The second session's request is in the same hour with the same model: no new lookup, the same one reused.
  expect(shared.size).toBe(1);
  expect(shared.get(key)).toBe(pricing);
  expect(first.usd).toBeGreaterThan(0);
  expect(first).toEqual(sessionRow(one, place('one.jsonl')));
  expect(second).toEqual(sessionRow(two, place('two.jsonl')));
});
