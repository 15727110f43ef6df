// Names that are Object.prototype members (issue 19, item 6): every format's sample with its ids, tool names,
// thread ids and object keys replaced by each name of Object.getOwnPropertyNames(Object.prototype) loads,
// analyses, shares and prints through the CLI (exit 0), and a `__proto__` key stays a plain key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { runCli } from '../../src/cli/main.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { redactTranscript } from '../../src/share/redact.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { tokenizer } from '../helpers/replay.ts';
import { SAMPLES } from './samples.ts';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const dir = mkdtempSync(join(tmpdir(), 'tierscope-proto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sample with every id/name-like value set to `name` and `name` added as a key of every tool input. */
function withName(text: string, name: string): string {
  const q = JSON.stringify(name).slice(1, -1);
  const ids =
    /(\\?")(name|id|tool_use_id|toolUseId|call_id|tool_call_id|uuid|parentUuid|leafUuid|sessionId|agentId|requestId|model|type_name|function)(\\?":\s*\\?")[^"\\]*(\\?")/g;
  return text
    .replace(ids, (_m, a, k, b, c) => `${a}${k}${b}${q}${c}`)
    .replace(/("input":\s*\{)/g, `$1"${q}":"x",`)
    .replace(/("properties":\s*\{)/g, `$1"${q}":{"type":"string"},`);
}

describe('every format with ids, names and keys drawn from Object.prototype', () => {
  for (const sample of SAMPLES) {
    it(sample.name, async () => {
      const tok = await tokenizer();
      for (const name of NAMES) {
        const text = withName(sample.text, name);
        const r = parseTranscript(fileFromText(`x.${sample.jsonl ? 'jsonl' : 'json'}`, text));
        if (!r.ok) continue; // a variant the format no longer recognises is refused with a message, not a crash
        const config = presetConfig('seeds');
        expect(
          () =>
            analyze(r.transcript, { config, preset: 'seeds', mode: 'recorded', provider: 'anthropic', tokenizer: tok }),
          name,
        ).not.toThrow();
        expect(() => redactTranscript(r.transcript), name).not.toThrow();
        const file = join(dir, `${name}.${sample.jsonl ? 'jsonl' : 'json'}`);
        writeFileSync(file, text);
        for (const argv of [
          ['analyze', file],
          ['analyze', file, '--json'],
          ['share', file, '--redact'],
        ]) {
          const err: string[] = [];
          const code = await runCli(argv, { out: () => {}, err: (s) => err.push(s) });
          expect(code, `${name} ${argv.join(' ')}: ${err.join(' ')}`).toBe(0);
        }
      }
    });
  }

  it('the engine loads, lists rows and runs a session whose thread ids and tool names are __proto__ and constructor', async () => {
    const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: '__proto__', version: '1.0.98' };
    const lines = [
      { ...base, type: 'user', uuid: '__proto__', parentUuid: null, message: { role: 'user', content: 'go' } },
      {
        ...base,
        type: 'assistant',
        uuid: 'constructor',
        parentUuid: '__proto__',
        requestId: 'toString',
        message: {
          id: 'hasOwnProperty',
          role: 'assistant',
          model: 'valueOf',
          content: [
            {
              type: 'tool_use',
              id: '__proto__',
              name: 'constructor',
              input: JSON.parse('{"__proto__":"x","toString":1}'),
            },
          ],
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      },
      {
        ...base,
        isSidechain: true,
        agentId: '__proto__',
        type: 'user',
        uuid: 'side',
        parentUuid: null,
        message: { role: 'user', content: 'sub-agent task' },
      },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    expect(text).toContain('"__proto__":"x"');
    const engine = createEngine();
    const s = await engine.load(
      [{ name: 's.jsonl', buffer: new TextEncoder().encode(text).buffer as ArrayBuffer }],
      undefined,
    );
    if (!s.ok) throw new Error(s.error);
    for (const t of s.threads) expect((await engine.rows(t.id)).length).toBeGreaterThan(0);
    const run = await engine.run(1, {
      preset: 'seeds',
      config: presetConfig('seeds'),
      mode: 'recorded',
      provider: 'anthropic',
      encoding: 'o200k_base',
    });
    expect(run.stale).not.toBe(true);
  });
});
