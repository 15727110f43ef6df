// A followed session read again after it grew: carry-over keeps the earlier read's objects where they are equal, so
// the run cache carried to the grown transcript still has what it kept for them — the counting pool's line-unit
// counts of a long result included, so the first hard-cap cut of an old block after a growth tokenizes only the
// lines at the cut (issue 14's cut counting), as it did before the growth.
import { describe, expect, it } from 'vitest';
import { claudeCodeLines } from '../../bench/generate.ts';
import { RunMemo } from '../../src/analyses/run-memo.ts';
import { fileFromText, heldLines, parseTranscript } from '../../src/formats/index.ts';
import { carryOver, sameValue } from '../../src/model/carry-over.ts';
import type { Message, Thread, ToolResultBlock, Transcript } from '../../src/model/transcript.ts';
import { applyCut, headTailCut } from '../../src/pipeline/markers.ts';
import { carries } from '../../src/replay/cache.ts';
import { inlineEndpoint } from '../../src/tokens/count-pool.ts';
import { countTranscript } from '../../src/tokens/count-transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { CachedTokenizer, loadCounter } from '../../src/tokens/tokenizer.ts';

// Big enough (over 2 M characters) for the counting pool, which returns the line units of long texts.
const lines = [...claudeCodeLines(5 << 20, 3, { maxRequests: 1000 })];
const held = heldLines();
const read = (n: number): Transcript => {
  const r = parseTranscript(fileFromText('s.jsonl', `${lines.slice(0, n).join('\n')}\n`), [], { held });
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
};

describe('carry-over', () => {
  it('keeps every unchanged object and is equal in value to the fresh read', () => {
    const before = read(lines.length - 6);
    const fresh = read(lines.length);
    const grown = carryOver(before, fresh);
    expect(sameValue(grown, fresh)).toBe(true);
    expect(JSON.stringify(grown)).toBe(JSON.stringify(fresh));
    const [a, b] = [before.threads[0], grown.threads[0]];
    // All but the last few messages are the earlier read's objects; the grown thread itself is new.
    const kept = a.messages.filter((m, i) => b.messages[i] === m).length;
    expect(kept).toBeGreaterThanOrEqual(a.messages.length - 2);
    expect(b).not.toBe(a);
    expect(carryOver(grown, read(lines.length)).threads[0]).toBe(b); // nothing changed: the same thread
  });

  it('the carried cache keeps the line-unit counts of an old long result: its first cut counts only the cut', async () => {
    const counter = await loadCounter('o200k_base');
    const tok = new CachedTokenizer('o200k_base', counter);
    // The lengths of the texts the engine's tokenizer is asked to count.
    const asked: number[] = [];
    const count = tok.count.bind(tok);
    tok.count = (text: string) => {
      asked.push(text.length);
      return count(text);
    };
    // A cut's texts are counted without the cache (countFresh): asked too.
    const fresh = tok.countFresh.bind(tok);
    tok.countFresh = (text: string) => {
      asked.push(text.length);
      return fresh(text);
    };
    const endpoints = () => [inlineEndpoint(async () => counter)];
    const before = read(lines.length - 6);
    const cache = new RunMemo(before, new TokenMeter(tok));
    await countTranscript(before, cache.meter, 'o200k_base', endpoints);
    const long = before.threads[0].messages
      .flatMap((m) => m.blocks)
      .find(
        (b): b is ToolResultBlock =>
          b.type === 'tool_result' && typeof b.content === 'string' && b.content.length > 20_000,
      );
    if (!long) throw new Error('no long result in the generated session');

    const grown = carryOver(before, read(lines.length));
    expect(carries(cache, grown)).toBe(true);
    const next = new RunMemo(grown, cache.meter, undefined, cache);
    await countTranscript(grown, next.meter, 'o200k_base', endpoints);
    expect(grown.threads[0].messages.flatMap((m) => m.blocks).includes(long)).toBe(true);

    const text = long.content as string;
    const cut = headTailCut(text, 16_000);
    if (!cut) throw new Error('fits');
    const truncated: ToolResultBlock = { ...long, content: applyCut(text, cut) };
    asked.length = 0;
    next.meter.primeCut(long, truncated, cut);
    expect(next.meter.block(truncated)).toBe(counter.count(truncated.content as string));
    // Only the lines at the cut and the marker were counted, not the 16,000 characters kept.
    expect(Math.max(0, ...asked)).toBeLessThan(2_000);

    // What a growth did before: a new meter for the grown read adopts the block's count from the tokenizer's
    // cache without its lines, and the same kind of cut asks for the whole text it keeps (its first cut: the text
    // before the head's last space, the middle, the text from the tail's first space on).
    const adopted = new TokenMeter(tok);
    await countTranscript(grown, adopted, 'o200k_base', endpoints);
    const other = headTailCut(text, 12_000);
    if (!other) throw new Error('fits');
    const again: ToolResultBlock = { ...long, content: applyCut(text, other) };
    asked.length = 0;
    adopted.primeCut(long, again, other);
    adopted.block(again);
    expect(asked.reduce((a, b) => a + b, 0)).toBeGreaterThan(11_000);
  });
});

/** A thread whose messages are assistant calls (id, tool name) each answered by its result. */
function calls(list: [string, string][]): Thread {
  const messages: Message[] = list.flatMap(([id, name], k) => [
    {
      index: 2 * k,
      role: 'assistant',
      blocks: [{ type: 'tool_use', id, name, input: {} }],
      source: { line: 2 * k + 1 },
    },
    {
      index: 2 * k + 1,
      role: 'user',
      blocks: [{ type: 'tool_result', toolUseId: id, content: 'ok', isError: false }],
      source: { line: 2 * k + 2 },
    },
  ]);
  return { id: 'main', kind: 'main', messages, requests: [], prefix: {} };
}
const transcriptOf = (th: Thread): Transcript => ({ format: 'tierscope', meta: {}, threads: [th], parseIssues: [] });

describe('the run cache is carried over only while a grown thread names its earlier tool ids as before', () => {
  const cacheOf = async (t: Transcript) => {
    const cache = new RunMemo(t, new TokenMeter(new CachedTokenizer('o200k_base', await loadCounter('o200k_base'))));
    cache.pipeline.toolIds.of(t.threads[0]);
    return cache;
  };
  const cases: [string, [string, string][], [string, string][], boolean][] = [
    [
      'an appended call reusing an id keeps the names (the first call names it)',
      [
        ['a', 'Read'],
        ['b', 'Bash'],
      ],
      [
        ['a', 'Read'],
        ['b', 'Bash'],
        ['a', 'Edit'],
      ],
      true,
    ],
    [
      'the last call rewritten under another name is refused',
      [
        ['a', 'Read'],
        ['b', 'Bash'],
      ],
      [
        ['a', 'Read'],
        ['b', 'Grep'],
      ],
      false,
    ],
    [
      'unless an earlier, shared call named that id already',
      [
        ['b', 'Bash'],
        ['a', 'Read'],
        ['b', 'Bash'],
      ],
      [
        ['b', 'Bash'],
        ['a', 'Read'],
        ['b', 'Grep'],
      ],
      true,
    ],
  ];
  for (const [name, before, after, carried] of cases)
    it(name, async () => {
      const p = transcriptOf(calls(before));
      const cache = await cacheOf(p);
      expect(carries(cache, carryOver(p, transcriptOf(calls(after))))).toBe(carried);
    });
});
