// Shapes of this year's logs (issue 26): a Codex rollout that names no model is priced at its CLI version's default
// and says so; a mini-swe-agent trajectory is read with every call's usage; a PDF a Claude Code session read is
// counted per page (image and text), never as its base64; the provider's cache-miss reason is read per response.
import { describe, expect, it } from 'vitest';
import { recordedCost } from '../../src/analyses/recorded-cost.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { codexDefaultModel } from '../../src/formats/codex-default-model.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { documentTokens } from '../../src/tokens/media-tokens.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';

const line = (type: string, payload: unknown, ts = '2025-08-20T10:00:00.000Z') =>
  JSON.stringify({ timestamp: ts, type, payload });

describe('a Codex rollout without a model', () => {
  const rollout = [
    line('session_meta', { id: 'a', cli_version: '0.30.0', cwd: '/w' }),
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] }),
    line('event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: 5000, cached_input_tokens: 1000, output_tokens: 50 },
        last_token_usage: { input_tokens: 5000, cached_input_tokens: 1000, output_tokens: 50 },
      },
    }),
  ].join('\n');

  it('is priced at its version’s default model, labelled as assumed with why', () => {
    const r = parseTranscript(fileFromText('rollout-x.jsonl', rollout));
    if (!r.ok) throw new Error(r.error);
    const t = r.transcript;
    expect(t.meta.assumedModel?.model).toBe('gpt-5');
    expect(t.meta.assumedModel?.why).toMatch(/names no model.*Codex 0\.30\.0/);
    expect(t.threads[0].requests[0].model).toBe('gpt-5');
    expect(recordedCost(t, {}).totals?.usd ?? 0).toBeGreaterThan(0);
    // Typed prices for the assumed id re-price it.
    const typed = recordedCost(t, { 'gpt-5': { input: 100, output: 100, cacheRead: 10 } }).totals?.usd ?? 0;
    expect(typed).toBeCloseTo((4000 * 100 + 50 * 100 + 1000 * 10) / 1e6, 6);
  });

  it('follows the versions’ defaults', () => {
    expect(codexDefaultModel('0.42.0-alpha.3').model).toBe('gpt-5-codex');
    expect(codexDefaultModel('0.63.0').model).toBe('gpt-5.1-codex-max');
    expect(codexDefaultModel('0.77.0').model).toBe('gpt-5.2-codex');
    expect(codexDefaultModel('0.104.0-alpha.1').model).toBe('gpt-5.3-codex');
    expect(codexDefaultModel('0.114.0').model).toBe('gpt-5.4');
    expect(codexDefaultModel(undefined).model).toBe('gpt-5');
  });
});

describeReal('real files of the new shapes', () => {
  const find = (part: string) => {
    const f = fixtureInputs().find((x) => x.rel.includes(part));
    if (!f) throw new Error(`no fixture ${part}`);
    const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
    if (!r.ok) throw new Error(r.error);
    return r.transcript;
  };

  it('mini-swe-agent: every call with its usage (prompt with cached inside), the model from the response', () => {
    const t = find('minisweagent-django__django-11039');
    expect(t.format).toBe('swe-agent');
    const reqs = t.threads[0].requests;
    expect(reqs).toHaveLength(38);
    expect(reqs.every((r) => r.observed && r.model === 'deepseek-chat')).toBe(true);
    expect(reqs[0].observed).toEqual({ input: 1209, cacheRead: 320, cacheWrite: 0, output: 73 });
    expect(t.meta.extra?.['model_stats.api_calls']).toBe(38);
  });

  it('a PDF read by Claude Code costs its pages and text, not its base64', () => {
    const t = find('75f4476d-43ad-4f46-bddb-f63736e351a4');
    const doc = t.threads[0].messages.flatMap((m) => m.blocks).find((b) => b.type === 'other' && b.kind === 'document');
    if (doc?.type !== 'other') throw new Error('no document block');
    const tokens = documentTokens(doc.raw);
    // 16 letter pages: ≈1,590 per page image plus the shown text; the base64 alone tokenizes to ~640k.
    expect(tokens).toBeGreaterThan(16 * 1500);
    expect(tokens).toBeLessThan(60_000);
  });

  it('the provider’s cache-miss reason, and "diagnostics": null as no miss', () => {
    const t = find('ebfb497e-e1dc-430b-aed4-17b11545d95b');
    const reqs = t.threads[0].requests;
    const missed = reqs.filter((r) => r.cacheMiss);
    expect(missed.map((r) => r.cacheMiss)).toEqual([{ type: 'messages_changed', missedTokens: 67266 }]);
    expect(reqs.filter((r) => r.cacheMiss === null).length).toBeGreaterThan(40);
  });
});

describe('binary blocks are never counted as base64 text', () => {
  it('an OpenAI file part costs a page, not its base64', async () => {
    const { mediaTokens } = await import('../../src/tokens/media-tokens.ts');
    const data = 'A'.repeat(400_000);
    const part = {
      type: 'other' as const,
      kind: 'input_file',
      raw: { type: 'input_file', file_data: `data:application/octet-stream;base64,${data}` },
    };
    expect(mediaTokens(part)).toBeLessThan(2000);
    const { countedText } = await import('../../src/tokens/block-text.ts');
    expect(countedText(part)).toBe('');
  });
});

describe('mini-swe-agent 1.0 text actions', () => {
  it('a command in a fenced block becomes a tool call and its observation the result', () => {
    const doc = {
      info: { model_stats: { instance_cost: 0.01, api_calls: 1 }, mini_version: '1.0.0' },
      trajectory_format: 'mini-swe-agent-1',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Fix the bug.' },
        {
          role: 'assistant',
          content: 'THOUGHT: look first\n\n```bash\nls -la\n```',
          extra: { response: { model: 'gpt-5-mini', usage: { prompt_tokens: 900, completion_tokens: 20 } } },
        },
        { role: 'user', content: '<returncode>0</returncode>\n<output>a.py</output>' },
      ],
    };
    const r = parseTranscript(fileFromText('run.traj.json', JSON.stringify(doc)));
    if (!r.ok) throw new Error(r.error);
    const th = r.transcript.threads[0];
    const use = th.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_use');
    const res = th.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result');
    expect(use?.type === 'tool_use' && use.input).toEqual({ command: 'ls -la' });
    expect(res?.type === 'tool_result' && res.toolUseId).toBe(use?.type === 'tool_use' ? use.id : '');
    expect(th.requests[0].observed).toEqual({ input: 900, cacheRead: 0, cacheWrite: 0, output: 20 });
  });
});
