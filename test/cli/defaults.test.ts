// `tierscope analyze` starts from the log's defaults like the app: the provider and context window come from the
// format and model unless --provider / --set contextWindow= / a config file set them, and the human summary and
// the --json report say where each came from.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  if (code !== 0) throw new Error(err.join('\n'));
  return out.join('\n');
}

const SWE = 'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj';
const CODEX = 'codex/simonw-codex-0.77-homelab.jsonl';

describeReal('analyze uses the log’s defaults', () => {
  it('SWE-agent with gpt-4o: openai-chat and 128,000 from the log, in the summary and the report', async () => {
    const text = await run(['analyze', realPath(SWE)]);
    expect(text).toContain('provider openai-chat (from the log: gpt-4o is an OpenAI model)');
    expect(text).toContain('window 128,000 (from the log: @pydantic/genai-prices 0.1.8 lists 128,000 for gpt-4o)');
    expect(text).toContain('pairing (openai-chat): 0 errors');
    expect(text).not.toContain('ids must be unique');
    const r = JSON.parse(await run(['analyze', realPath(SWE), '--json'])) as Report;
    expect(r.settings.provider).toBe('openai-chat');
    expect(r.defaults).toMatchObject({
      model: { id: 'gpt-4o', source: 'requests' },
      catalog: { name: '@pydantic/genai-prices', version: '0.1.8' },
      provider: { value: 'openai-chat', source: 'log', log: { value: 'openai-chat', from: 'model' } },
      contextWindow: { value: 128_000, source: 'log', log: { value: 128_000, from: 'catalog', catalogId: 'gpt-4o' } },
    });
  });

  it('Codex: openai-responses from the format, the window of the model named in turn_context', async () => {
    const r = JSON.parse(await run(['analyze', realPath(CODEX), '--json'])) as Report;
    expect(r.settings.provider).toBe('openai-responses');
    expect(r.defaults?.provider.log.from).toBe('format');
    expect(r.defaults?.contextWindow).toMatchObject({ value: 400_000, source: 'log' });
    expect(r.defaults?.model).toEqual({ id: 'gpt-5.2-codex', count: 0, of: 0, source: 'file' });
  });

  it('flags win, and are reported as chosen beside the log’s default', async () => {
    const args = ['analyze', realPath(SWE), '--provider', 'anthropic', '--set', 'contextWindow=50000'];
    const text = await run(args);
    expect(text).toContain(
      "provider anthropic (--provider; the log's default is openai-chat: gpt-4o is an OpenAI model)",
    );
    expect(text).toContain("window 50,000 (set by --set/--config; the log's default is 128,000:");
    expect(text).toContain('ids must be unique');
    const r = JSON.parse(await run([...args, '--json'])) as Report;
    expect(r.defaults?.provider).toMatchObject({ value: 'anthropic', source: 'chosen' });
    expect(r.defaults?.contextWindow).toMatchObject({ value: 50_000, source: 'chosen' });
  });

  it('a config file that sets contextWindow is a choice; one that does not leaves the log’s window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-defaults-'));
    const withWindow = join(dir, 'w.json');
    const without = join(dir, 'n.json');
    writeFileSync(withWindow, JSON.stringify({ contextWindow: 64_000 }));
    writeFileSync(without, JSON.stringify({ tier3Window: 4 }));
    const a = JSON.parse(await run(['analyze', realPath(SWE), '--config', withWindow, '--json'])) as Report;
    expect(a.defaults?.contextWindow).toMatchObject({ value: 64_000, source: 'chosen' });
    const b = JSON.parse(await run(['analyze', realPath(SWE), '--config', without, '--json'])) as Report;
    expect(b.defaults?.contextWindow).toMatchObject({ value: 128_000, source: 'log' });
  });
});
