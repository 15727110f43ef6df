// Defaults come from the log (SPEC §1.1): the pairing provider by format and model, the context window from the
// catalog, the log's own statement or an observed prompt that already exceeds it — on hand-made transcripts of
// every format and on the real fixtures; and the SWE-agent fixture no longer gets Anthropic's false errors.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { logDefaults, logModel } from '../../src/analyses/log-defaults.ts';
import { settingsOrigin, withLogDefaults } from '../../src/analyses/settings-origin.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import type { FormatId, ObservedUsage, Transcript, TranscriptMeta } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { describeReal, loadReal, SHARED_DIR } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

type Req = { model?: string; usage?: ObservedUsage; thread?: string };

/** A transcript of `format` whose main thread makes one request per entry (an assistant message each). */
function tx(format: FormatId, reqs: Req[], meta: TranscriptMeta = {}): Transcript {
  const threads = new Map<string, Transcript['threads'][number]>();
  for (const r of reqs) {
    const id = r.thread ?? 'main';
    let th = threads.get(id);
    if (!th) {
      th = { id, kind: id === 'main' ? 'main' : 'sidechain', messages: [], requests: [], prefix: {} };
      threads.set(id, th);
    }
    const k = th.messages.length;
    th.messages.push({ index: k, role: 'user', blocks: [{ type: 'text', text: 'go' }], source: { line: k + 1 } });
    th.messages.push({
      index: k + 1,
      role: 'assistant',
      blocks: [{ type: 'text', text: 'ok' }],
      source: { line: k + 2 },
      ...(r.model ? { model: r.model } : {}),
    });
    th.requests.push({
      index: th.requests.length,
      thread: id,
      inputEnd: k + 1,
      responseEnd: k + 2,
      ...(r.model ? { model: r.model } : {}),
      ...(r.usage ? { observed: r.usage } : {}),
    });
  }
  return { format, meta, threads: [...threads.values()], parseIssues: [] };
}

const usage = (prompt: number): ObservedUsage => ({ input: 10, cacheRead: prompt - 10, cacheWrite: 0, output: 100 });

describe('provider by format and model', () => {
  const CASES: [FormatId, string | undefined, string, 'model' | 'format'][] = [
    ['codex', 'gpt-5-codex', 'openai-responses', 'format'],
    ['codex', undefined, 'openai-responses', 'format'],
    ['openai-chat', 'gpt-4o-mini-2024-07-18', 'openai-chat', 'model'],
    ['openai-chat', 'some-local-llama', 'openai-chat', 'format'],
    ['swe-agent', 'gpt-4o', 'openai-chat', 'model'],
    ['swe-agent', undefined, 'openai-chat', 'format'],
    ['swe-agent', 'claude-sonnet-4-20250514', 'anthropic', 'model'],
    ['inspect', 'openai/gpt-4o', 'openai-chat', 'model'],
    ['inspect', 'anthropic/claude-3-5-haiku-20241022', 'anthropic', 'model'],
    ['inspect', 'google/gemini-2.5-pro', 'gemini', 'model'],
    ['inspect', 'bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0', 'bedrock', 'model'],
    ['openai-chat', 'gemini-2.5-flash', 'gemini', 'model'],
    ['claude-code', 'claude-opus-4-7', 'anthropic', 'model'],
    ['claude-code', undefined, 'anthropic', 'format'],
    ['claude-code', 'us.anthropic.claude-sonnet-4-20250514-v1:0', 'bedrock', 'model'],
    ['claude-code', 'glm-4.6', 'anthropic', 'format'],
    ['claude-trace', 'claude-sonnet-4-20250514', 'anthropic', 'model'],
    ['anthropic-request', 'claude-sonnet-4-5-20250929', 'anthropic', 'model'],
  ];
  for (const [format, model, provider, from] of CASES)
    it(`${format} + ${model ?? 'no model'} → ${provider} (from the ${from})`, () => {
      const d = logDefaults(tx(format, [{ model }]));
      expect(d.provider.value).toBe(provider);
      expect(d.provider.from).toBe(from);
      expect(d.provider.why).not.toBe('');
      if (model && from === 'model') expect(d.provider.why).toContain(model);
    });

  it('a bundle (tierscope) decides by its original format', () => {
    expect(logDefaults(tx('tierscope', [{ model: 'gpt-5-codex' }], { originalFormat: 'codex' })).provider.value).toBe(
      'openai-responses',
    );
    expect(logDefaults(tx('tierscope', [{ model: 'gpt-4o' }])).provider.value).toBe('openai-chat');
  });
});

describe('the model the defaults follow', () => {
  it('is the main thread’s most frequent model, skipping synthetic names', () => {
    const t = tx('claude-code', [
      { model: 'claude-sonnet-4-20250514' },
      { model: '<synthetic>' },
      { model: 'claude-opus-4-1-20250805' },
      { model: 'claude-sonnet-4-20250514' },
      { model: 'claude-haiku-4-5-20251001', thread: 'agent-1' },
      { model: 'claude-haiku-4-5-20251001', thread: 'agent-1' },
      { model: 'claude-haiku-4-5-20251001', thread: 'agent-1' },
    ]);
    expect(logModel(t)).toEqual({ id: 'claude-sonnet-4-20250514', count: 2, of: 3, source: 'requests' });
  });

  it('falls back to the file’s own statement (SWE-agent replay config, Codex turn_context)', () => {
    expect(logModel(tx('codex', [{}], { extra: { model: 'gpt-5.2-codex' } }))).toEqual({
      id: 'gpt-5.2-codex',
      count: 0,
      of: 0,
      source: 'file',
    });
    expect(logModel(tx('codex', [{}]))).toBeNull();
  });
});

describe('context window', () => {
  it('from the catalog for the main thread’s model', () => {
    const w = logDefaults(tx('swe-agent', [{ model: 'gpt-4o' }])).contextWindow;
    expect(w).toMatchObject({ value: 128_000, from: 'catalog', catalogWindow: 128_000, catalogId: 'gpt-4o' });
    expect(w.why).toBe('@pydantic/genai-prices 0.1.8 lists 128,000 for gpt-4o');
  });

  it('the window the log states (Codex model_context_window) wins over the catalog, which is still named', () => {
    const w = logDefaults(
      tx('codex', [{ model: 'gpt-5-codex' }], { extra: { modelContextWindow: 272_000 } }),
    ).contextWindow;
    expect(w).toMatchObject({ value: 272_000, from: 'log', catalogWindow: 400_000 });
    expect(w.why).toContain('400,000 for gpt-5-codex');
  });

  it('a larger one when an observed prompt already exceeds it: a 1M-context Sonnet session', () => {
    const t = tx('claude-code', [
      { model: 'claude-sonnet-4-5-20250929', usage: usage(150_000) },
      { model: 'claude-sonnet-4-5-20250929', usage: usage(351_234) },
      { model: 'claude-sonnet-4-5-20250929', usage: usage(190_000) },
    ]);
    const w = logDefaults(t).contextWindow;
    expect(w).toMatchObject({
      value: 1_000_000,
      from: 'observed',
      catalogWindow: 200_000,
      observedMax: { tokens: 351_234, thread: 'main', request: 1 },
    });
    expect(w.why).toContain('351,234 prompt tokens (observed), over 200,000');
    // At the window exactly, nothing changes.
    const at = logDefaults(tx('claude-code', [{ model: 'claude-sonnet-4-5-20250929', usage: usage(200_000) }]));
    expect(at.contextWindow).toMatchObject({ value: 200_000, from: 'catalog' });
  });

  it('an unknown model says so and leaves the preset’s window, unless a prompt already exceeds that', () => {
    const small = logDefaults(tx('openai-chat', [{ model: 'my-finetune', usage: usage(5_000) }])).contextWindow;
    expect(small).toMatchObject({ value: null, from: 'none', catalogWindow: null });
    expect(small.why).toBe('my-finetune is not in @pydantic/genai-prices 0.1.8');
    const big = logDefaults(tx('openai-chat', [{ model: 'my-finetune', usage: usage(250_001) }])).contextWindow;
    expect(big).toMatchObject({ value: 251_000, from: 'observed' });
    expect(big.why).toContain('rounded up to the next 1,000');
    const none = logDefaults(tx('claude-code', [{}])).contextWindow;
    expect(none).toMatchObject({ value: null, from: 'none', why: 'the log names no model' });
  });

  it('withLogDefaults puts the log’s window into a preset config (and leaves it when the log has none)', () => {
    const seeds = presetConfig('seeds');
    const d = logDefaults(tx('swe-agent', [{ model: 'gpt-4o' }]));
    expect(withLogDefaults(seeds, d)).toEqual({ ...seeds, contextWindow: 128_000 });
    expect(withLogDefaults(seeds, logDefaults(tx('claude-code', [{}])))).toBe(seeds);
    expect(withLogDefaults(seeds, null)).toBe(seeds);
  });

  it('the cache TTL is 1 hour when most of what the log wrote to cache were 1-hour writes, else the preset’s', () => {
    const seeds = presetConfig('seeds');
    const w = (write: number, oneHour: number) => ({
      model: 'claude-sonnet-4-5-20250929',
      usage: { input: 3, cacheRead: 0, cacheWrite: write, cacheWrite1h: oneHour, output: 5 },
    });
    const hour = logDefaults(tx('claude-code', [w(10_000, 9000), w(2000, 0)]));
    expect(hour.cacheTtl).toEqual({
      value: 3600,
      why: '9,000 of the 12,000 tokens the log wrote to cache were 1-hour writes',
    });
    expect(withLogDefaults(seeds, hour).cache.ttlSeconds).toBe(3600);
    const five = logDefaults(tx('claude-code', [w(10_000, 1000)]));
    expect(five.cacheTtl.value).toBeNull();
    expect(withLogDefaults(seeds, five).cache.ttlSeconds).toBe(300);
  });

  it('settingsOrigin labels each setting as the log’s, a choice, or the preset’s', () => {
    const d = logDefaults(tx('swe-agent', [{ model: 'gpt-4o' }]));
    const o = settingsOrigin(
      d,
      { provider: 'anthropic', contextWindow: 128_000, ttlSeconds: 300 },
      { provider: true, contextWindow: false, ttl: false },
    );
    expect(o.provider).toMatchObject({ value: 'anthropic', source: 'chosen', log: { value: 'openai-chat' } });
    expect(o.contextWindow).toMatchObject({ value: 128_000, source: 'log' });
    const none = logDefaults(tx('claude-code', [{}]));
    expect(
      settingsOrigin(
        none,
        { provider: 'anthropic', contextWindow: 200_000, ttlSeconds: 300 },
        { provider: false, contextWindow: false, ttl: false },
      ).contextWindow.source,
    ).toBe('preset');
  });
});

function wild(rel: string): Transcript {
  const p = join(SHARED_DIR, 'fixtures/wild', rel);
  const r = parseTranscript(fileFromPath(p), companionFiles(p), {});
  if (!r.ok) throw new Error(`${rel}: ${r.error}`);
  return r.transcript;
}

describeReal('defaults of the real fixtures, one per format', () => {
  // [fixture, loader, provider, window, window source]
  const CASES: [string, () => Transcript, string, number | null, string][] = [
    [
      'claude-code fe5e1c67',
      () => loadReal('claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
      'anthropic',
      200_000,
      'catalog',
    ],
    [
      'claude-code sub-agent (no model)',
      () => loadReal('claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl'),
      'anthropic',
      null,
      'none',
    ],
    ['claude-trace', () => loadReal('claude-trace/lemmy-test-traffic.redacted.jsonl'), 'anthropic', 200_000, 'catalog'],
    [
      'codex simonw (no token_count)',
      () => loadReal('codex/simonw-codex-0.77-homelab.jsonl'),
      'openai-responses',
      400_000,
      'catalog',
    ],
    [
      'codex synthetic',
      () => loadReal('codex/synthetic-agentsessions-codex-itemtypes.jsonl'),
      'openai-responses',
      258_400,
      'log',
    ],
    ['inspect', () => loadReal('inspect/inspect-browser-gpt4o-mini.json'), 'openai-chat', 128_000, 'catalog'],
    [
      'openai-chat',
      () => loadReal('openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl'),
      'openai-chat',
      128_000,
      'catalog',
    ],
    [
      'swe-agent',
      () => loadReal('swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj'),
      'openai-chat',
      128_000,
      'catalog',
    ],
    [
      'wild codex gpt-5.1-codex-max',
      () => wild('codex/parkinglot-rollout-2025-12-06T15-11-37-019af581-86ce-7d23-b9c6-0f99353d36af.jsonl'),
      'openai-responses',
      258_400,
      'log',
    ],
    [
      'wild claude-code opus-4-7',
      () => wild('claude-code/projects/ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'),
      'anthropic',
      1_000_000,
      'catalog',
    ],
    ['wild inspect gpt-4o', () => wild('inspect/inspectai-log_images.json'), 'openai-chat', 128_000, 'catalog'],
  ];
  for (const [name, load, provider, window, from] of CASES)
    it(`${name}: ${provider}, window ${window ?? 'preset'} (${from})`, () => {
      const d = logDefaults(load());
      expect(d.provider.value).toBe(provider);
      expect(d.contextWindow.value).toBe(window);
      expect(d.contextWindow.from).toBe(from);
    });

  it('the SWE-agent fixture: no false Anthropic "ids must be unique" errors with the log’s provider', async () => {
    const t = loadReal('swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj');
    const d = logDefaults(t);
    const tok = await tokenizer();
    const run = (provider: 'anthropic' | 'openai-chat') =>
      analyze(t, {
        config: withLogDefaults(presetConfig('seeds'), d),
        preset: 'seeds',
        mode: 'recorded',
        provider,
        tokenizer: tok,
      }).report;
    const before = run('anthropic');
    expect(before.pairing.filter((v) => v.error.includes('`tool_use` ids must be unique'))).toHaveLength(3);
    const now = run(d.provider.value as 'openai-chat');
    expect(now.settings.provider).toBe('openai-chat');
    expect(now.totals.pairingErrors).toBe(0);
    expect(now.pairing.some((v) => v.error.includes('ids must be unique'))).toBe(false);
    // The repeated call ids are still flagged, as what they are: a warning of the OpenAI chat rules.
    expect(now.pairing.map((v) => `${v.rule}:${v.severity}`)).toEqual(Array(3).fill('duplicate-id:warning'));
  });
});
