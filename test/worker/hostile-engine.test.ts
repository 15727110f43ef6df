// The engine on issue 29's loads (the same code the app's worker runs): a `.tierscope.json` share file holding a
// 30,000-deep value (the share tail made it parse the whole file again with JSON.parse and narrow it recursively:
// "Maximum call stack size exceeded", the whole load failed), and the Raw tab's text (the line was parsed and
// re-serialised: a duplicate key hid its first value, a 30-digit integer became 1.23…e+29, 1e400 null; a bundle
// showed itself whole as "line 1").
import { describe, expect, it } from 'vitest';
import { exportBundle } from '../../src/formats/tierscope.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { toShareFile } from '../../src/share/payload.ts';
import { DEFAULT_VIEW } from '../../src/share/view.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { transcript } from '../helpers/dsl.ts';

const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });

describe('a share file with a value nested 30,000 deep', () => {
  it('loads with the deep value cut and its settings and view restored', async () => {
    const t = transcript('U go\n-\nA tu(a) Bash DEEPVALUE\n-\nU tr(a) "done"\n-\nA ok');
    const state = {
      preset: 'claude-code' as const,
      config: presetConfig('claude-code'),
      mode: 'raw' as const,
      provider: 'anthropic' as const,
      encoding: 'o200k_base' as const,
      view: { ...DEFAULT_VIEW, thread: 'main', request: 1, selection: 2 },
      source: { kind: 'transcript' as const, transcript: t },
    };
    const text = toShareFile(state).replace('"DEEPVALUE"', `${'['.repeat(30_000)}${']'.repeat(30_000)}`);
    expect(text.length).toBeGreaterThan(60_000);
    const engine = createEngine();
    const r = await engine.load([file('deep.tierscope.json', text)], undefined);
    if (!r.ok) throw new Error(r.error);
    expect(r.counts.messages).toBe(4);
    expect(r.parseIssues.some((i) => /nested deeper than 512 levels/.test(i.message))).toBe(true);
    expect(r.share?.settings.preset).toBe('claude-code');
    expect(r.share?.settings.mode).toBe('raw');
    expect(r.share?.view).toEqual({ ...DEFAULT_VIEW, thread: 'main', request: 1, selection: 2 });
  });
});

describe('the Raw tab', () => {
  const base = '"isSidechain":false,"sessionId":"s","cwd":"/w"';
  const user = `{"type":"user","uuid":"u1","parentUuid":null,${base},"message":{"role":"user","content":"first"},"message":{"role":"user","content":"second"},"big":123456789012345678901234567890,"huge":1e400}`;
  const answer = `{"type":"assistant","uuid":"a1","parentUuid":"u1",${base},"requestId":"r","message":{"id":"m","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"output_tokens":1}}}`;

  it('shows the line as written: both values of a duplicate key, a 30-digit integer, 1e400', async () => {
    const engine = createEngine();
    const r = await engine.load([file('dup.jsonl', `${user}\r\n${answer}\n`)], undefined);
    if (!r.ok) throw new Error(r.error);
    const d = await engine.detail('main', 0);
    expect(d?.raw).toBe(user);
    expect(d?.raw).toContain('"content":"first"');
    expect(d?.raw).toContain('123456789012345678901234567890');
    expect(d?.raw).toContain('1e400');
    expect((await engine.detail('main', 1))?.raw).toBe(answer);
  });

  it('a bundle says it carries no source lines (it showed itself whole as "line 1")', async () => {
    const engine = createEngine();
    const first = await engine.load([file('dup.jsonl', `${user}\n${answer}\n`)], undefined);
    if (!first.ok) throw new Error(first.error);
    const t = transcript('U hello\n-\nA world');
    const r = await engine.load([file('shared.tierscope.json', exportBundle(t))], undefined);
    if (!r.ok) throw new Error(r.error);
    const d = await engine.detail('main', 1);
    expect(d?.raw).toBeNull();
    expect(d?.rawNote).toMatch(
      /^a Tierscope bundle \(share link or \.tierscope\.json\) carries the normalized transcript/,
    );
  });
});
