// Issue 19, item 10: a value nested past 512 levels or a `.json` cut mid-write used to reject the whole file with
// "first line looks like: {". A JSON-lines file drops only the deep line (an issue names it and why); a document
// keeps everything but the deep value; a truncated document is called truncated, at its byte.
import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { cutDeep, openAtEnd } from '../../src/lib/json.ts';
import { asst, text, user } from '../helpers/claude-code-lines.ts';

const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** A JSON line with a value `n` levels deep spliced in as the key "deep". */
const withDeep = (o: object, n: number) => `${JSON.stringify(o).slice(0, -1)},"deep":${nest(n)}}`;

const chat = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'hello' },
    { role: 'assistant', content: 'hi there' },
    { role: 'user', content: 'more' },
  ],
};

describe('JSON lines nested past 512 levels', () => {
  it('a log whose head lines are all too deep still loads: each such line is one issue, the rest is kept', () => {
    // 20 deep lines fill the detection window; before, nothing recognised the file.
    const deep = Array.from({ length: 20 }, (_, i) => withDeep(user(`d${i}`, i ? `d${i - 1}` : null, `q${i}`), 600));
    const good = [asst('a1', 'd19', 'm1', [text('answer')]), user('u2', 'a1', 'thanks')].map((o) => JSON.stringify(o));
    const r = parseTranscript(fileFromText('deep.jsonl', `${[...deep, ...good].join('\n')}\n`));
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
    if (!r.ok) return;
    expect(r.transcript.format).toBe('claude-code');
    const refused = r.transcript.parseIssues.filter((i) => /nested deeper than 512 levels/.test(i.message));
    expect(refused.map((i) => [i.line, i.severity])).toEqual(Array.from({ length: 20 }, (_, i) => [i + 1, 'error']));
    expect(r.transcript.threads[0].messages.map((m) => m.source.line)).toEqual([21, 22]);
  });

  it('a one-line log that is too deep loads empty with the reason, not "could not recognise"', () => {
    const r = parseTranscript(fileFromText('one.jsonl', `${withDeep(user('u1', null, 'hi'), 513)}\n`));
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
    if (!r.ok) return;
    expect(r.transcript.parseIssues).toEqual([
      expect.objectContaining({
        line: 1,
        severity: 'error',
        message: expect.stringMatching(/nested deeper than 512 levels/),
      }),
    ]);
  });
});

describe('JSON documents', () => {
  it('a value nested past 512 levels is replaced and the rest of the document loads, with an issue at its line', () => {
    const doc = { ...chat, messages: [...chat.messages] };
    const pretty = JSON.stringify(doc, null, 2).replace('"hi there"', `"hi there",\n      "x": ${nest(700)}`);
    const r = parseTranscript(fileFromText('chat.json', pretty));
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
    if (!r.ok) return;
    expect(r.transcript.format).toBe('openai-chat');
    expect(r.transcript.threads[0].messages).toHaveLength(3);
    const line = pretty.split('\n').findIndex((l) => l.includes('"x"')) + 1;
    expect(r.transcript.parseIssues).toEqual([
      expect.objectContaining({
        line,
        severity: 'error',
        message: expect.stringMatching(/^a value nested deeper than 512 levels \(the first at byte \d+\) replaced/),
      }),
    ]);
  });

  it('a truncated .json says it is truncated at byte N, not "first line looks like: {"', () => {
    const pretty = JSON.stringify(chat, null, 2);
    for (const cut of [40, 115, pretty.length - 3]) {
      const r = parseTranscript(fileFromText('chat.json', pretty.slice(0, cut)));
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.error).toMatch(new RegExp(`^chat\\.json is truncated: its JSON document stops at byte ${cut} `));
      expect(r.error).not.toMatch(/first line looks like/);
    }
  });

  it('a document broken in the middle is not called truncated: the formats tried, its first line and why', () => {
    const r = parseTranscript(fileFromText('chat.json', '{\n  "model": "gpt-4o",\n  "messages": [} \n]\n}\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/^Could not recognise chat\.json: tried .*openai-chat.*The first line looks like: \{/);
    expect(r.error).toMatch(/; as one JSON document it is not valid JSON.*Unexpected token/);
    expect(r.error).not.toMatch(/truncated/);
  });
});

describe('lib/json helpers', () => {
  it('cutDeep replaces each value opening past the limit, strings with brackets left alone', () => {
    const t = `{"a":"[[[[","b":${nest(4)},"c":[1]}`;
    expect(cutDeep(t, 2, 'X')).toEqual({ text: '{"a":"[[[[","b":["X"],"c":[1]}', cuts: [t.indexOf('[[[[]') + 1] });
    expect(JSON.parse(cutDeep(t, 2, 'X').text).b).toEqual(['X']);
  });

  it('openAtEnd counts open brackets and sees an unclosed string', () => {
    expect(openAtEnd('{"a":[1,')).toEqual({ open: 2, inString: false });
    expect(openAtEnd('{"a":"x\\"y')).toEqual({ open: 1, inString: true });
    expect(openAtEnd('{"a":"]"}')).toEqual({ open: 0, inString: false });
  });
});
