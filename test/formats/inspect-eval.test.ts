// Inspect `.eval` logs from the wild (fixtures/wild/inspect, PROVENANCE rows 97–100): counts as recorded there,
// detection by content, the same threads as the `.json` rendering of the same log, the same result for any chunk
// size, and for the archive rewritten as stored, zstd (multi-frame) or data-descriptor entries.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fileFromBytes, fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { ImageBlock, Thread, Transcript } from '../../src/model/transcript.ts';
import { describeWild, loadWild, wildPath } from '../helpers/fixtures.ts';
import { entriesOf, makeZip } from '../helpers/zip.ts';

const DEDUP = 'inspect/inspectai-log_message_deduplication.eval';
const STREAMING = 'inspect/inspectai-log_streaming.eval';
const POPULARITY = 'inspect/inspectai-2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval';
const IMAGES = 'inspect/inspectai-log_images.json';

/** PROVENANCE.md rows 97–99: samples, messages, tool calls, model events; and the header's eval spec. */
const EXPECTED = [
  {
    rel: DEDUP,
    samples: 1,
    messages: 12,
    toolCalls: 5,
    model: 6,
    version: '3',
    task: 'inspect_test_utils/guess_number',
    llm: 'hardcoded/hardcoded',
  },
  {
    rel: STREAMING,
    samples: 4,
    messages: 12,
    toolCalls: 0,
    model: 4,
    version: '2',
    task: 'popularity',
    llm: 'azureai/Meta-Llama-3-1-405B-Instruct-jqf',
  },
  {
    rel: POPULARITY,
    samples: 10,
    messages: 30,
    toolCalls: 0,
    model: 10,
    version: '2',
    task: 'popularity',
    llm: 'openai/gpt-4o-mini',
  },
];

const count = (t: Transcript, f: (th: Thread) => number) => t.threads.reduce((n, th) => n + f(th), 0);
const blocks = (th: Thread, type: string) => th.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));

function load(name: string, bytes: Uint8Array, chunk?: number): Transcript {
  const r = parseTranscript(fileFromBytes(name, bytes, chunk));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

/** The threads without JSON paths (they name the zip entry in a `.eval`, the array index in a `.json`). */
const withoutPaths = (threads: Thread[]) => JSON.stringify(threads, (k, v) => (k === 'path' ? undefined : v));

describeWild('inspect .eval: the three logs from the wild', () => {
  for (const x of EXPECTED) {
    describe(x.rel, () => {
      const t = loadWild(x.rel);

      it(`loads as inspect log v${x.version} with no issues, one main thread per sample`, () => {
        expect(t.format).toBe('inspect');
        expect(t.parseIssues).toEqual([]);
        expect(t.threads).toHaveLength(x.samples);
        expect(t.threads.every((th) => th.kind === 'main' && /^sample-.+-\d+$/.test(th.id))).toBe(true);
        expect(t.meta).toMatchObject({ version: x.version, title: x.task });
        expect(t.meta.extra).toMatchObject({ task: x.task, model: x.llm, status: 'success' });
        expect(t.meta.skipped).toEqual({ 'journal entry': 1, 'summaries.json': 1, 'reductions.json': 1 });
      });

      it(`has ${x.messages} messages, ${x.toolCalls} tool calls answered in order, ${x.model} requests`, () => {
        expect(count(t, (th) => th.messages.length)).toBe(x.messages);
        expect(count(t, (th) => blocks(th, 'tool_use').length)).toBe(x.toolCalls);
        expect(count(t, (th) => blocks(th, 'tool_result').length)).toBe(x.toolCalls);
        expect(count(t, (th) => th.requests.length)).toBe(x.model);
        for (const th of t.threads) {
          const used = new Set<string>();
          for (const b of th.messages.flatMap((m) => m.blocks)) {
            if (b.type === 'tool_use') used.add(b.id);
            if (b.type === 'tool_result') expect(used.has(b.toolUseId)).toBe(true);
          }
          for (const r of th.requests) expect(th.messages[r.inputEnd]?.role).toBe('assistant');
        }
      });

      it('is detected by content, whatever the file is called', () => {
        const hidden = load('upload.bin', readBytes(x.rel));
        expect(exportBundle(hidden)).toBe(exportBundle({ ...t, meta: { ...t.meta, fileName: 'upload.bin' } }));
      });

      it('gives the threads of the same log written as .json', () => {
        const entries = new Map(entriesOf(wildPath(x.rel)));
        const header = JSON.parse(new TextDecoder().decode(entries.get('header.json')));
        const samples = [...entries]
          .filter(([name]) => name.startsWith('samples/'))
          .map(([, b]) => JSON.parse(new TextDecoder().decode(b)))
          .sort((a, b) => a.id - b.id || a.epoch - b.epoch);
        const json = parseTranscript(fileFromText('log.json', JSON.stringify({ ...header, samples })));
        if (!json.ok) throw new Error(json.error);
        expect(json.transcript.threads.map((th) => th.id)).toEqual(t.threads.map((th) => th.id));
        expect(withoutPaths(json.transcript.threads)).toBe(withoutPaths(t.threads));
        expect(t.threads[0].messages[0].source.path).toMatch(/^samples\/\d+_epoch_\d+\.json:messages\[0\]$/);
      });

      it('reads the same in 7-byte chunks, and rewritten as stored, zstd or data-descriptor entries', () => {
        const bytes = readBytes(x.rel);
        const name = t.meta.fileName ?? '';
        const expected = exportBundle(t);
        expect(exportBundle(load(name, bytes, 7))).toBe(expected);
        const entries = entriesOf(wildPath(x.rel));
        for (const method of ['stored', 'deflate', 'zstd'] as const) {
          for (const descriptors of [false, true]) {
            const rezipped = makeZip(entries, { method, descriptors });
            expect(exportBundle(load(name, rezipped, 4096)), `${method} ${descriptors}`).toBe(expected);
          }
        }
      });
    });
  }

  it('expands model-event inputs condensed into the message pool (log v3 input_refs)', () => {
    const [th] = loadWild(DEDUP).threads;
    expect(th.requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
      [9, 10],
      [11, 12],
    ]);
    expect(th.messages[1].blocks.at(-1)).toEqual({
      type: 'tool_use',
      id: 'hardcoded_0',
      name: 'bash',
      input: { cmd: 'ls' },
    });
  });

  it('orders samples by id, then epoch, with usage from each model event', () => {
    const streaming = loadWild(STREAMING);
    expect(streaming.threads.map((th) => th.id)).toEqual(['sample-1-1', 'sample-1-2', 'sample-2-1', 'sample-2-2']);
    const popularity = loadWild(POPULARITY);
    expect(popularity.threads.map((th) => th.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Sample ${i + 1} (epoch 1)`),
    );
    expect(popularity.threads.every((th) => th.requests[0].observed?.output === 2)).toBe(true);
    expect(popularity.threads[0].requests[0]).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', inputEnd: 2 });
  });

  it('the CLI analyzes an .eval from disk (streamed) with the same counts', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['analyze', wildPath(DEDUP), '--json'], {
      out: (x) => out.push(x),
      err: (x) => err.push(x),
    });
    expect([code, err.join('')]).toEqual([0, '']);
    const report = JSON.parse(out.join('\n'));
    expect(report.format).toBe('inspect');
    expect(report.counts).toMatchObject({ threads: 1, messages: 12, requests: 6, toolUses: 5, toolResults: 5 });
  });

  it('inspectai-log_images.json: the image attachment resolves into an image block', () => {
    const t = loadWild(IMAGES);
    expect(t.format).toBe('inspect');
    expect(t.parseIssues).toEqual([]);
    const [th] = t.threads;
    expect(th.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    const image = th.messages[1].blocks[1] as ImageBlock;
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(JSON.stringify(image.source)).toMatch(/"data:image\/png;base64,iVBOR/);
    expect(th.requests).toHaveLength(1);
  });
});

function readBytes(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(wildPath(rel)));
}
