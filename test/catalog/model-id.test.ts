// Model ids as logs write them: the bare id, the host it was called through, and the maker.
import { describe, expect, it } from 'vitest';
import { familyOf, parseModelId } from '../../src/catalog/model-id.ts';

describe('parseModelId', () => {
  const CASES: [string, { bare: string; host: string; family: string; hostId?: string }][] = [
    ['claude-sonnet-4-5-20250929', { bare: 'claude-sonnet-4-5-20250929', host: 'direct', family: 'anthropic' }],
    ['anthropic/claude-opus-4-7', { bare: 'claude-opus-4-7', host: 'direct', family: 'anthropic' }],
    ['openai/gpt-4o-mini', { bare: 'gpt-4o-mini', host: 'direct', family: 'openai' }],
    ['models/gemini-2.5-pro', { bare: 'gemini-2.5-pro', host: 'direct', family: 'google' }],
    [
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
      {
        bare: 'claude-sonnet-4-20250514',
        host: 'bedrock',
        family: 'anthropic',
        hostId: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
      },
    ],
    [
      'anthropic.claude-3-5-haiku-20241022-v1:0',
      { bare: 'claude-3-5-haiku-20241022', host: 'bedrock', family: 'anthropic' },
    ],
    [
      'arn:aws:bedrock:eu-west-1:111122223333:inference-profile/eu.anthropic.claude-opus-4-1-20250805-v1:0',
      { bare: 'claude-opus-4-1-20250805', host: 'bedrock', family: 'anthropic' },
    ],
    ['bedrock/meta.llama3-70b-instruct-v1:0', { bare: 'llama3-70b-instruct', host: 'bedrock', family: 'other' }],
    ['claude-sonnet-4@20250514', { bare: 'claude-sonnet-4-20250514', host: 'vertex', family: 'anthropic' }],
    [
      'projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-5@20251101',
      { bare: 'claude-opus-4-5-20251101', host: 'vertex', family: 'anthropic' },
    ],
    ['vertex_ai/gemini-2.5-flash', { bare: 'gemini-2.5-flash', host: 'vertex', family: 'google' }],
    [
      'openrouter/anthropic/claude-sonnet-4.5',
      { bare: 'claude-sonnet-4.5', host: 'openrouter', family: 'anthropic', hostId: 'anthropic/claude-sonnet-4.5' },
    ],
    ['azure/gpt-4o', { bare: 'gpt-4o', host: 'azure', family: 'openai' }],
    ['gpt-5.1-codex-max', { bare: 'gpt-5.1-codex-max', host: 'direct', family: 'openai' }],
    ['o3-mini', { bare: 'o3-mini', host: 'direct', family: 'openai' }],
    ['deepseek-chat', { bare: 'deepseek-chat', host: 'direct', family: 'other' }],
    ['', { bare: '', host: 'direct', family: 'other' }],
  ];
  for (const [raw, want] of CASES)
    it(JSON.stringify(raw), () => {
      const p = parseModelId(raw);
      expect(p.raw).toBe(raw);
      expect(p).toMatchObject(want);
    });
});

describe('familyOf', () => {
  it('names the maker from the bare id; anything else is "other"', () => {
    expect(familyOf('claude-3-5-haiku')).toBe('anthropic');
    expect(familyOf('gpt-5-codex')).toBe('openai');
    expect(familyOf('o1')).toBe('openai');
    expect(familyOf('codex-mini-latest')).toBe('openai');
    expect(familyOf('gemini-3-pro-preview')).toBe('google');
    expect(familyOf('mistral-large')).toBe('other');
    expect(familyOf('opus')).toBe('other');
  });
});
