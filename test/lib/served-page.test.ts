// A fetched log that is a web page instead (a dev server's index.html, status 200, for a path with no file) is said
// to be that, not read as a log in no known format; a log served with its own type, or a page asked for by name, is not.
import { expect, it } from 'vitest';
import { servedPageReason } from '../../src/lib/served-page.ts';

const res = (type: string | null) => ({ headers: { get: (n: string) => (n === 'content-type' ? type : null) } });

it('a web page served for a log path is no file at that path', () => {
  expect(servedPageReason(res('text/html'), '/nope.jsonl')).toMatch(/web page, not the file/);
  expect(servedPageReason(res('text/html; charset=utf-8'), 'http://127.0.0.1:5173/logs/a.json?x=1')).toMatch(
    /is there a file at that path/,
  );
});

it('a log served as text, JSON or bytes, or a page asked for by name, may be the file', () => {
  for (const type of ['application/json', 'text/plain', 'application/octet-stream', 'application/x-ndjson', null])
    expect(servedPageReason(res(type), '/a.jsonl')).toBeNull();
  expect(servedPageReason(res('text/html'), '/saved/chat.html')).toBeNull();
});
