// The "from the log" labels: a value equal to the log's default names its source and model; any other value is
// an override (the user's, a share link's, a sample's) that names the log's value; no log, no label.
import { describe, expect, it } from 'vitest';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import type { FormatId, Transcript } from '../../src/model/transcript.ts';
import { providerNote, windowNote } from '../../src/views/common/log-default-note.ts';

function tx(format: FormatId, model: string | undefined, prompt?: number): Transcript {
  return {
    format,
    meta: model ? { extra: { model } } : {},
    threads: [
      {
        id: 'main',
        kind: 'main',
        messages: [],
        requests: prompt
          ? [
              {
                index: 0,
                thread: 'main',
                inputEnd: 0,
                observed: { input: prompt, cacheRead: 0, cacheWrite: 0, output: 1 },
              },
            ]
          : [],
        prefix: {},
      },
    ],
    parseIssues: [],
  };
}

const name = (p: string) => `<${p}>`;

describe('windowNote', () => {
  const swe = logDefaults(tx('swe-agent', 'gpt-4o'));
  it('from the log: the model and the catalog', () => {
    expect(windowNote(swe, 128_000, 200_000, null)).toEqual({
      text: 'from the log · gpt-4o in the catalog',
      title: '@pydantic/genai-prices 0.1.8 lists 128,000 for gpt-4o',
      source: 'catalog',
      overridden: false,
    });
  });
  it('an override names who set it and the log’s value', () => {
    expect(windowNote(swe, 50_000, 200_000, null)).toMatchObject({
      text: 'override · the log says 128,000',
      overridden: true,
      source: 'override',
    });
    const sample = { kind: 'sample', name: 'story', contextWindow: 44_000, provider: 'anthropic' } as const;
    expect(windowNote(swe, 44_000, 200_000, sample)?.text).toBe('from the sample · the log says 128,000');
    const link = { ...sample, kind: 'link', name: 'share link' } as const;
    expect(windowNote(swe, 44_000, 200_000, link)?.text).toBe('from the share link · the log says 128,000');
    // Changed after the link opened: the user's override now.
    expect(windowNote(swe, 45_000, 200_000, link)?.text).toBe('override · the log says 128,000');
    expect(providerNote(swe, 'anthropic', link, name)?.text).toBe('from the share link · the log says <openai-chat>');
    expect(providerNote(swe, 'gemini', link, name)?.text).toBe('override · the log says <openai-chat>');
  });
  it('an observed prompt over the catalog’s window', () => {
    const big = logDefaults(tx('claude-code', 'claude-sonnet-4-5-20250929', 300_000));
    expect(windowNote(big, 1_000_000, 200_000, null)).toMatchObject({
      text: 'from the log · observed prompt of 300,000 tokens',
      source: 'observed',
    });
  });
  it('no model: the preset’s window, said so; changing it is an override of the preset’s', () => {
    const none = logDefaults(tx('claude-code', undefined));
    expect(windowNote(none, 200_000, 200_000, null)).toMatchObject({
      text: "preset's window · the log names no model",
      source: 'preset',
      overridden: false,
    });
    expect(windowNote(none, 90_000, 200_000, null)?.text).toBe(
      "override · the log gives none; the preset's is 200,000",
    );
  });
  it('nothing loaded: no label', () => {
    expect(windowNote(null, 200_000, 200_000, null)).toBeNull();
  });
});

describe('providerNote', () => {
  it('from the model, from the format, or an override naming the log’s provider', () => {
    expect(providerNote(logDefaults(tx('swe-agent', 'gpt-4o')), 'openai-chat', null, name)).toEqual({
      text: 'from the log · gpt-4o',
      title: 'gpt-4o is an OpenAI model',
      source: 'model',
      overridden: false,
    });
    expect(providerNote(logDefaults(tx('codex', 'gpt-5-codex')), 'openai-responses', null, name)).toMatchObject({
      text: 'from the log · codex format',
      source: 'format',
    });
    expect(providerNote(logDefaults(tx('codex', 'gpt-5-codex')), 'anthropic', null, name)).toMatchObject({
      text: 'override · the log says <openai-responses>',
      overridden: true,
    });
    expect(providerNote(null, 'anthropic', null, name)).toBeNull();
  });
});
