// Harbor ATIF trajectories and OpenTelemetry GenAI spans (issue 31), both made from the real Gemini CLI pomodoro
// chat by the converters' own rules (scripts/make-fixtures.ts): each loads with the chat's requests and dollars,
// its usage rule checked, and the spans' agent totals never counted twice.
import { describe, expect, it } from 'vitest';
import { recordedCost } from '../../../src/analyses/recorded-cost.ts';
import { fileFromText, parseTranscript } from '../../../src/formats/index.ts';
import { agentFixture, atifDollars, geminiJsonDollars, loadAgent, otelDollars } from '../../helpers/agent-fixtures.ts';

const ATIF = 'atif/harbor-gemini-cli-pomodoro/trajectory.json';
const OTEL = 'otel-genai/pomodoro-genai-spans.json';
const CHAT = 'gemini-cli/yoavf-pomodoro-timer.json';

describe('Harbor ATIF', () => {
  it('loads as atif: a request per agent step, observations as the next user turn', () => {
    const t = loadAgent(ATIF);
    expect(t.format).toBe('atif');
    expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
    const th = t.threads[0];
    expect(th.requests).toHaveLength(14);
    const m = th.messages;
    m.forEach((msg, i) => {
      for (const b of msg.blocks)
        if (b.type === 'tool_use')
          expect(m[i + 1].blocks.some((x) => x.type === 'tool_result' && x.toolUseId === b.id)).toBe(true);
    });
    // The same usage per request as the chat it came from: prompt_tokens holds cached_tokens.
    const chat = loadAgent(CHAT).threads[0].requests.map((r) => r.observed);
    expect(th.requests.map((r) => r.observed)).toEqual(chat);
  });

  it('recorded dollars equal the raw steps at the catalog prices, and the chat’s', () => {
    const ours = recordedCost(loadAgent(ATIF), {}).totals;
    expect(ours?.usd ?? 0).toBeCloseTo(atifDollars(agentFixture(ATIF)).usd, 6);
    expect(ours?.usd ?? 0).toBeCloseTo(geminiJsonDollars(agentFixture(CHAT)).usd, 6);
  });

  it('a step that sums several model calls is billed apart, not a request’s prompt', () => {
    const doc = {
      schema_version: 'ATIF-v1.6',
      session_id: 's',
      agent: { name: 'x', version: '1', model_name: 'gpt-4o' },
      steps: [
        { step_id: 1, source: 'user', message: 'hi' },
        {
          step_id: 2,
          source: 'agent',
          message: 'a',
          llm_call_count: 3,
          metrics: { prompt_tokens: 9000, completion_tokens: 30, cached_tokens: 100 },
        },
      ],
    };
    const r = parseTranscript(fileFromText('trajectory.json', JSON.stringify(doc)));
    if (!r.ok) throw new Error(r.error);
    const th = r.transcript.threads[0];
    expect(th.requests[0].observed).toBeUndefined();
    expect(th.billedApart?.[0].usage).toEqual({ input: 8900, cacheRead: 100, cacheWrite: 0, output: 30 });
  });
});

describe('OpenTelemetry GenAI spans', () => {
  it('loads as otel-genai: the chat calls in a main thread, the reviewer sub-agent apart', () => {
    const t = loadAgent(OTEL);
    expect(t.format).toBe('otel-genai');
    expect(t.threads.map((th) => [th.kind, th.requests.length])).toEqual([
      ['main', 14],
      ['sidechain', 2],
    ]);
    expect(t.threads[1].title).toContain('reviewer');
    expect(t.parseIssues.some((i) => /repeat the usage/.test(i.message))).toBe(true);
    expect(t.threads[0].requests.map((r) => r.observed)).toEqual(
      loadAgent(CHAT).threads[0].requests.map((r) => r.observed),
    );
  });

  it('recorded dollars count each chat span once, never the invoke_agent totals', () => {
    const ours = recordedCost(loadAgent(OTEL), {}).totals;
    const theirs = otelDollars(agentFixture(OTEL));
    expect(ours?.priced).toBe(theirs.responses);
    expect(ours?.usd ?? 0).toBeCloseTo(theirs.usd, 6);
  });

  it('an exporter that writes Anthropic’s raw input_tokens (below the cache figures) is read as uncached', () => {
    const attr = (key: string, v: number | string) => ({
      key,
      value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
    });
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 't',
                  spanId: 's1',
                  name: 'chat claude-sonnet-4-5',
                  startTimeUnixNano: '1760000000000000000',
                  attributes: [
                    attr('gen_ai.operation.name', 'chat'),
                    attr('gen_ai.request.model', 'claude-sonnet-4-5'),
                    attr('gen_ai.usage.input_tokens', 12),
                    attr('gen_ai.usage.cache_read.input_tokens', 30000),
                    attr('gen_ai.usage.cache_creation.input_tokens', 800),
                    attr('gen_ai.usage.output_tokens', 90),
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const r = parseTranscript(fileFromText('traces.json', JSON.stringify(body)));
    if (!r.ok) throw new Error(r.error);
    expect(r.transcript.threads[0].requests[0].observed).toEqual({
      input: 12,
      cacheRead: 30000,
      cacheWrite: 800,
      output: 90,
    });
  });
});
