// Model probes (issue 17 deliver 4) against a local mock endpoint: the engine writes the four prompts of the real
// compaction in 24a90d02 (the summary only), the page's endpoint call sends them with the user's key (in a header,
// never in the URL) to a Chat Completions or Messages server, and the answers are graded against the ledger with the
// deterministic rules — a model that names two of the three modified files keeps two and loses the third.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import { MODEL_PROBE_SYSTEM } from '../../src/analyses/model-probes.ts';
import { withLogDefaults } from '../../src/analyses/settings-origin.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { callEndpoint } from '../../src/state/endpoint-call.ts';
import type { RunResult } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeWild, loadWild, wildPath } from '../helpers/fixtures.ts';

const REL =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';
const KEY = 'sk-test-1234';

type Seen = { url: string; auth: string | undefined; apiKey: string | undefined; body: Record<string, unknown> };
const seen: Seen[] = [];
let server: Server;
let base = '';

/** A model that read the summary: answers from a fixed script by question. */
function answer(prompt: string): string {
  if (prompt.includes('Which files did you modify'))
    return 'Modified: /Users/pretor/.claude/voice-server/server.ts and ~/.claude/config/voice-setup-backup.md. Read: unknown.';
  if (prompt.includes('exact error messages')) return 'Port 8888 already in use; generateSpeechStreaming was added.';
  if (prompt.includes('What should you do next'))
    return 'Present the learnings: "welche learnings und verbesserungsvorschläge können wir aus der history ziehen?"';
  return 'Use MCP tools as a workaround.';
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const b = JSON.parse(await body(req)) as Record<string, unknown>;
    seen.push({
      url: req.url ?? '',
      auth: req.headers.authorization,
      apiKey: req.headers['x-api-key'] as string,
      body: b,
    });
    const messages = b.messages as { role: string; content: string }[];
    const prompt = messages.at(-1)?.content ?? '';
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/messages') res.end(JSON.stringify({ content: [{ type: 'text', text: answer(prompt) }] }));
    else if (prompt.includes('What did you decide')) {
      res.statusCode = 429;
      res.end(JSON.stringify({ error: { message: `rate limited for key ${KEY}` } }));
    } else res.end(JSON.stringify({ choices: [{ message: { content: answer(prompt) } }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describeWild('model probes of the compaction in 24a90d02, asked of a mock endpoint', () => {
  it('prompts carry the summary only; answers are graded against the ledger; a failure is an answer', async () => {
    const engine = createEngine();
    const bytes = readFileSync(wildPath(REL));
    await engine.load(
      [
        {
          name: '24a90d02.jsonl',
          buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
        },
      ],
      undefined,
    );
    const d = logDefaults(loadWild(REL));
    const r = (await engine.run(1, {
      preset: 'seeds',
      config: withLogDefaults(presetConfig('seeds'), d),
      mode: 'recorded',
      provider: 'anthropic',
      encoding: 'o200k_base',
    })) as RunResult;
    const id = r.compactions[0].id;
    const calls = (await engine.modelProbes(id)) ?? [];
    expect(calls.map((c) => c.type)).toEqual(['artifact', 'recall', 'continuation', 'decision']);
    for (const c of calls) {
      expect(c.prompt).toContain('This session is being continued from a previous conversation');
      // The ledger never goes out: the prompt has the summary, not the files it lost.
      expect(c.prompt).not.toContain('voices.json');
    }
    const settings = { endpoint: `${base}/v1/chat/completions`, kind: 'openai' as const, model: 'mock-1' };
    const answers = await Promise.all(
      calls.map(async (c) => ({
        key: c.key,
        outcome: await callEndpoint(settings, KEY, { prompt: c.prompt, system: MODEL_PROBE_SYSTEM, maxTokens: 600 }),
      })),
    );
    expect(seen.every((s) => s.auth === `Bearer ${KEY}` && !s.url.includes(KEY))).toBe(true);
    expect(seen[0].body.messages).toEqual([
      { role: 'system', content: MODEL_PROBE_SYSTEM },
      { role: 'user', content: calls[0].prompt },
    ]);
    const graded = (await engine.gradeModelProbes(id, answers)) ?? [];
    const artifact = graded.find((g) => g.type === 'artifact');
    expect(artifact?.graded?.filesModified?.kept.map((x) => x.match)).toEqual(['exact', 'normalized']);
    expect(artifact?.graded?.filesModified?.lost.map((x) => x.text)).toEqual([
      '/Users/pretor/.claude/history/sessions/2025-12/2025-12-03-175900_SESSION_voice-system-setup.md',
    ]);
    expect(artifact?.graded?.filesRead?.kept).toEqual([]);
    const recall = graded.find((g) => g.type === 'recall');
    expect(recall?.graded?.errors?.lost).toHaveLength(1);
    expect(recall?.graded?.identifiers?.kept.map((x) => x.text)).toEqual(['generateSpeechStreaming']);
    const next = graded.find((g) => g.type === 'continuation');
    expect(next?.graded?.instructions?.kept.map((x) => x.text.slice(0, 15))).toEqual(['welche learning']);
    const decision = graded.find((g) => g.type === 'decision');
    expect(decision?.graded).toBeNull();
    expect(decision?.error).toBe(`HTTP 429 Too Many Requests: rate limited for key ${KEY}`);
  });

  it('the Messages shape sends the key as x-api-key and reads the text content', async () => {
    const s = { endpoint: `${base}/v1/messages`, kind: 'anthropic' as const, model: 'mock-2' };
    const out = await callEndpoint(s, KEY, {
      prompt: 'Question: Which files did you modify',
      system: 'sys',
      maxTokens: 50,
    });
    expect(out).toEqual({ ok: true, text: answer('Which files did you modify') });
    const last = seen.at(-1);
    expect(last?.apiKey).toBe(KEY);
    expect(last?.body).toMatchObject({ model: 'mock-2', max_tokens: 50, system: 'sys' });
  });
});
