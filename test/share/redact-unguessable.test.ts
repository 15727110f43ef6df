// Redaction that cannot be guessed back and misses no field kind (issue 29, items 2 and 3). The filler was seeded by
// the text it replaced, so a redacted link was a dictionary oracle: fill every PIN and compare (10⁶ tried in 0.5 s left
// 4 candidates). Now filler is drawn per share: low-entropy values planted in a share (PINs, common passwords, names,
// numbers, keys) fill differently in two shares, a thousand redactions of one PIN give ~a thousand fillers, and the
// real value is no likelier to reproduce a link's filler than any other. JSON numbers and tool-input keys are filled
// too. The 34 secret kinds of the adversarial pass, planted in every field kind a share keeps (paths, ids, tool names,
// an `.eval` member name and sample id, `meta.skipped` keys, schema enums, metadata keys and values, source uuids,
// request ids), are in no redacted link, and the preview lists what it kept.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Block, Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { fromBase64Url, inflateRaw } from '../../src/share/bytes.ts';
import { shareValue } from '../../src/share/link.ts';
import { redactTranscript } from '../../src/share/redact.ts';
import { DEFAULT_VIEW } from '../../src/share/view.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { jsonl, toolCallLines } from '../helpers/claude-code-lines.ts';
import { makeZip } from '../helpers/zip.ts';
import { secretKinds } from './secret-kinds.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-unguessable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linkJson(link: string): Promise<unknown> {
  const value = shareValue(`#s=${link.split('#s=')[1]}`) ?? '';
  const packed = fromBase64Url(value.slice(2));
  if (!packed) throw new Error('not base64url');
  return JSON.parse(new TextDecoder().decode(await inflateRaw(packed)));
}

/** Every string and object key of a JSON value, one per line (numbers left out: times and counts are no text). */
function textOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) textOf(x, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      textOf(x, out);
    }
  return out;
}

/** The input of the first tool call in a share's transcript. */
function firstInput(share: unknown): Record<string, unknown> {
  const t = (share as { transcript: Transcript }).transcript;
  for (const th of t.threads)
    for (const m of th.messages)
      for (const b of m.blocks) if (b.type === 'tool_use') return b.input as Record<string, unknown>;
  throw new Error('no tool call');
}

const PLANTED = {
  pin: '4821',
  password: 'hunter2',
  username: 'alice',
  card: 4111111111111111,
  cvv: 737,
  'Jane Q. Doe, SSN 078-05-1120': 'on file',
  limit: 20,
};

function session(input: Record<string, unknown>): string {
  return jsonl(...toolCallLines({ input, prompt: 'Pay the bill, Alice.', result: 'paid' }));
}

describe('low-entropy values cannot be guessed back from a redacted share', () => {
  it('two shares of the same session fill every planted value differently; numbers and keys are filled too', async () => {
    const path = join(dir, 'pay.jsonl');
    writeFileSync(path, session(PLANTED));
    const shares: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['share', path, '--redact'], { out: (s) => out.push(s), err: (s) => err.push(s) });
      expect(code, err.join('\n')).toBe(0);
      shares.push(await linkJson(out.join('').trim()));
    }
    const [a, b] = shares.map(firstInput);
    const text = shares.map((s) => textOf(s).join('\n'));
    for (const t of text) {
      for (const w of ['4821', 'hunter2', 'alice', 'Alice', 'Jane', '078-05-1120', 'SSN']) expect(t).not.toContain(w);
    }
    // Numbers: same digit count, other digits; the same planted value fills differently in the two shares.
    for (const x of [a, b]) {
      const nums = Object.values(x).filter((v): v is number => typeof v === 'number');
      expect(nums.map((n) => String(String(n).length)).sort()).toEqual(['16', '2', '3']);
      expect(nums).not.toContain(4111111111111111);
      expect(nums).not.toContain(737);
    }
    // Parameter names are kept; the key that is content is filled, differently in each share.
    expect(Object.keys(a)).toContain('limit');
    const keyOf = (x: Record<string, unknown>) => Object.keys(x).find((k) => k.length === 28) ?? '';
    expect(keyOf(a)).toMatch(/^[A-Z][a-z]+ [A-Z]\. [A-Z][a-z]+, [A-Z]{3} \d{3}-\d{2}-\d{4}$/);
    expect(keyOf(a)).not.toBe(keyOf(b));
    const values = (x: Record<string, unknown>) => JSON.stringify(Object.values(x));
    expect(values(a)).not.toBe(values(b));
  });

  it('a PIN redacted a thousand times gives ~a thousand fillers, and the real PIN is no likelier to reproduce one', () => {
    const parsed = parseTranscript(fileFromText('pay.jsonl', session(PLANTED)));
    if (!parsed.ok) throw new Error(parsed.error);
    // The PIN is the first value (its key, `pin`, is no parameter name: it is filled too).
    const pinOf = (t: Transcript) => String(Object.values(firstInput({ transcript: t }))[0]);
    const fillers = new Set<string>();
    for (let i = 0; i < 1000; i++) fillers.add(pinOf(redactTranscript(parsed.transcript).transcript));
    // 4 random digits: 1000 draws from 10⁴ give 951.6 distinct on average, standard deviation ~6.5 (60 samples of
    // the real redaction: 936–968). The bound was 930 (3.3 deviations: one CI run in ~2,000 read 929); 900 is 8
    // deviations, and still fails a filler drawn from 2,000 values (~787 distinct) or a function of the PIN.
    expect(fillers.size).toBeGreaterThan(900);
    // The attack of the issue: the link's filler, and every candidate PIN filled the way the link was. The real PIN
    // reproduces the link's filler no more often than chance (1 in 10⁴ a try), as does any other candidate.
    const link = pinOf(redactTranscript(parsed.transcript).transcript);
    let real = 0;
    let other = 0;
    for (let i = 0; i < 300; i++) {
      if (pinOf(redactTranscript(parsed.transcript).transcript) === link) real++;
      const guess = parseTranscript(fileFromText('pay.jsonl', session({ ...PLANTED, pin: String(1000 + i) })));
      if (guess.ok && pinOf(redactTranscript(guess.transcript).transcript) === link) other++;
    }
    expect(real).toBeLessThanOrEqual(2);
    expect(other).toBeLessThanOrEqual(2);
    // Every digit position takes every digit: the filler is uniform, not a function of "4821".
    for (let pos = 0; pos < 4; pos++) expect(new Set([...fillers].map((f) => f[pos])).size).toBe(10);
  });
});

/** A transcript with `v` in every field kind a share keeps as it is. */
function plantKept(v: string, i: number): Transcript {
  const id = `call_${v}`;
  const tool = `mcp__srv__${v}`;
  const blocks = (...b: Block[]) => b;
  return {
    format: 'claude-code',
    meta: {
      fileName: `session-${i}.jsonl`,
      skipped: { [v]: 1, 'file-history-snapshot': 2 },
      extra: { cwd: `/srv/${v}`, [v]: 'x', source: v, model: 'claude-sonnet-4-20250514' },
    },
    threads: [
      {
        id: `main`,
        kind: 'main',
        prefix: {
          tools: [
            {
              name: tool,
              description: 'Look a thing up.',
              inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: [v, 'fast'] } } },
            },
          ],
        },
        messages: [
          {
            index: 0,
            role: 'user',
            blocks: blocks({ type: 'text', text: `Read /home/me/${v}/notes.md please` }),
            source: { line: 1, uuid: v },
          },
          {
            index: 1,
            role: 'assistant',
            blocks: blocks(
              { type: 'tool_use', id, name: tool, input: { file_path: `/home/me/${v}/notes.md`, mode: v } },
              { type: 'other', kind: 'tool_reference', raw: { type: 'tool_reference', id: v, name: v } },
            ),
            source: { line: 2, uuid: `u-${i}`, path: `samples/${v}_epoch_1.json:messages[1]` },
            model: 'claude-sonnet-4-20250514',
          },
          {
            index: 2,
            role: 'user',
            blocks: blocks({ type: 'tool_result', toolUseId: id, content: 'done', isError: false }),
            source: { line: 3 },
          },
        ],
        requests: [{ index: 0, thread: 'main', inputEnd: 1, responseEnd: 2, requestId: v, line: 2 }],
      },
    ],
    parseIssues: [],
  };
}

/** An Inspect `.eval` whose sample member name and sample id are `v`. */
function plantEval(v: string): Uint8Array {
  const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
  const header = { version: 2, status: 'success', eval: { task: 't', model: 'openai/gpt-4o-mini' } };
  const sample = {
    id: v,
    epoch: 1,
    input: 'go',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'ok', model: 'gpt-4o-mini' },
    ],
  };
  const name = `samples/${v.replace(/\//g, '_')}_epoch_1.json`;
  return makeZip([
    ['header.json', enc(header)],
    [name, enc(sample)],
  ]);
}

const settings = {
  preset: 'seeds',
  config: presetConfig('seeds'),
  mode: 'recorded' as const,
  provider: 'anthropic' as const,
  encoding: 'o200k_base' as const,
};

describe('the 34 secret kinds in every kept field kind are in no redacted link', () => {
  const kinds = secretKinds(29);

  it('there are 34 kinds', () => {
    expect(kinds).toHaveLength(34);
    expect(new Set(kinds.map((k) => k.kind)).size).toBe(34);
  });

  for (const [n, k] of kinds.entries()) {
    it(k.kind, async () => {
      const engine = createEngine();
      const files = [
        { name: `planted-${n}.tierscope.json`, text: exportBundle(plantKept(k.value, n)) },
        { name: `planted-${n}.eval`, bytes: plantEval(k.value) },
      ];
      for (const f of files) {
        const bytes = 'text' in f ? new TextEncoder().encode(f.text) : f.bytes;
        const loaded = await engine.load([{ name: f.name, blob: new Blob([bytes as BlobPart]) }], undefined);
        if (!loaded.ok) throw new Error(loaded.error);
        const plain = await engine.share({
          settings,
          view: DEFAULT_VIEW,
          redact: null,
        });
        if (!plain.ok) throw new Error(plain.error);
        // Unredacted, the plants reach the link (so the redacted link is tested on them).
        const shipped = textOf(await linkJson(`#s=${plain.encoded}`)).join('\n');
        expect(shipped.includes(k.body), `${f.name} carries the plant`).toBe(true);
        for (const keepPaths of [true, false]) {
          const r = await engine.share({
            settings,
            view: DEFAULT_VIEW,
            redact: { keepPaths },
          });
          if (!r.ok) throw new Error(r.error);
          const text = textOf(await linkJson(`#s=${r.encoded}`)).join('\n');
          expect({ file: f.name, keepPaths, leaked: text.includes(k.body) }).toEqual({
            file: f.name,
            keepPaths,
            leaked: false,
          });
          // What was kept is listed: the parameter name `file_path` and the tool-call id as written.
          const p = r.redaction;
          if (!p) throw new Error('no preview');
          expect(p.kept.totals.ids + p.kept.totals.other + p.kept.totals.keys).toBeGreaterThan(0);
          for (const values of Object.values(p.kept.values)) for (const x of values) expect(x).not.toContain(k.body);
        }
      }
    });
  }
});
