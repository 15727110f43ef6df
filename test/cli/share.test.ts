// `tierscope share` and `tierscope minimize` (SPEC §7–8): the printed link decodes to the same analysis the CLI
// reports with the same flags; --redact and --minimize work end to end; minimize writes a loadable bundle that
// restores settings and view; bad arguments and predicates that do not hold exit 2 with a one-line reason.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import type { Report } from '../../src/analyses/report.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { decodeShare } from '../../src/share/codec.ts';
import { fromShareFile, type ShareState } from '../../src/share/payload.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { runCapture } from '../helpers/cli.ts';
import { transcript } from '../helpers/dsl.ts';
import { describeReal, describeWild, realPath, wildPath } from '../helpers/fixtures.ts';
import { loopDsl } from '../helpers/loop.ts';
import { tokenizer } from '../helpers/replay.ts';

const run = runCapture;

async function decoded(link: string): Promise<ShareState & { source: { kind: 'transcript'; transcript: Transcript } }> {
  const d = await decodeShare(link);
  if (!d.ok) throw new Error(d.error);
  if (d.state.source.kind !== 'transcript') throw new Error('expected a transcript');
  expect(d.warnings).toEqual([]);
  return d.state as ShareState & { source: { kind: 'transcript'; transcript: Transcript } };
}

/** The report as `analyze --json` prints it (JSON drops undefined fields), without the load format and the CLI's
 *  note of where the provider and window came from (the link carries the settings themselves). */
function asJson(r: Report) {
  const { format: _f, defaults: _d, ...rest } = JSON.parse(JSON.stringify(r)) as Report;
  return rest;
}

const dir = mkdtempSync(join(tmpdir(), 'tierscope-share-'));

/** A 100-turn session with an orphan result after turn 60, written as a bundle file. */
function orphanFile(): string {
  const turns = Array.from({ length: 100 }, (_, i) => ({ tool: 'Read', args: `src/f${i}.ts`, result: '400 chars' }));
  const lines = loopDsl(turns).split('\n');
  let seen = 0;
  const at = lines.findIndex((l) => l === '-' && ++seen === 121);
  lines.splice(at, 0, '-', 'U tr(ghost) "stray"');
  const f = join(dir, 'orphan.tierscope.json');
  writeFileSync(f, exportBundle(transcript(lines.join('\n'))));
  return f;
}

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

describeReal('tierscope share on real fixtures', () => {
  for (const [rel, flags] of [
    [
      'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
      ['--preset', 'kocoro-source', '--set', 'contextWindow=12000', '--set', 'tier3Window=2'],
    ],
    ['claude-trace/lemmy-test-traffic.redacted.jsonl', ['--preset', 'claude-code', '--mode', 'raw']],
    ['swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj', ['--provider', 'openai-chat']],
  ] as const) {
    it(`${rel} ${flags.join(' ')}: the link decodes to the analysis the CLI reports`, async () => {
      const file = realPath(rel);
      const shared = await run(['share', file, ...flags]);
      expect(shared.code).toBe(0);
      expect(shared.out).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#s=1\.[A-Za-z0-9_-]+$/);
      const cli = await run(['analyze', file, ...flags, '--json']);
      expect(cli.code).toBe(0);
      const state = await decoded(shared.out);
      const report = analyze(state.source.transcript, { ...state, tokenizer: tok, withoutPipeline: true }).report;
      const expected = asJson(JSON.parse(cli.out) as Report);
      expect(asJson(report).toolResults).toEqual(expected.toolResults);
      expect(asJson(report).pairing).toEqual(expected.pairing);
      expect(asJson(report).requests).toEqual(expected.requests);
      expect(asJson(report)).toEqual(expected);
    });
  }

  it('--redact prints a redaction summary and a link with the same structure and no original text', async () => {
    const file = realPath('claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
    const r = await run(['share', file, '--redact', '--redact-paths', '--base-url', 'https://tierscope.example/app/']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /^tierscope: redacted \d+ strings \(\d+ chars\), 0 secret-looking strings replaced, 0 paths kept; tokens \d+ → \d+/,
    );
    expect(r.out.startsWith('https://tierscope.example/app/#s=1.')).toBe(true);
    const state = await decoded(r.out);
    const original = readFileSync(file, 'utf8');
    const text = JSON.stringify(state.source.transcript);
    for (const phrase of ['Demo', 'TodoItem', 'components']) {
      if (original.includes(phrase)) expect(text).not.toContain(phrase);
    }
    const ids = (t: Transcript) => t.threads.flatMap((th) => th.messages.flatMap((m) => m.blocks.map((b) => b.type)));
    const plain = await decoded((await run(['share', file])).out);
    expect(ids(state.source.transcript)).toEqual(ids(plain.source.transcript));
  });

  it('warns on stderr when the link is over 32 KB', async () => {
    const r = await run(['share', realPath('claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/the link is [\d.]+ KB, over 32 KB/);
  });
});

describe('tierscope share --minimize and tierscope minimize', () => {
  it('share --minimize prints a link to the minimized reproduction, viewing the failure', async () => {
    const r = await run(['share', orphanFile(), '--minimize', 'pairing:orphan-result@input']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /^tierscope: minimized 203 → \d messages, 101 → 1 requests, 1 → 1 threads in \d+ evaluations \(minimal\)/,
    );
    const state = await decoded(r.out);
    const t = state.source.transcript;
    expect(t.threads[0].messages.length).toBeLessThanOrEqual(10);
    expect(state.view).toMatchObject({ thread: 'main', request: 0, selection: null, compaction: null });
    const report = analyze(t, { ...state, tokenizer: tok }).report;
    expect(report.pairing.map((v) => `${v.rule}@${v.stage}`)).toContain('orphan-result@input');
  });

  it('minimize --out writes a bundle that loads by drop and restores settings and view', async () => {
    const out = join(dir, 'min.tierscope.json');
    const r = await run([
      'minimize',
      orphanFile(),
      '--predicate',
      'pairing:orphan-result',
      '--preset',
      'claude-code',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/minimized 203 → \d messages/);
    expect(r.err).toMatch(/wrote .*min\.tierscope\.json/);
    const text = readFileSync(out, 'utf8');
    const loaded = parseTranscript(fileFromText('min.tierscope.json', text));
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.transcript.threads[0].messages.length).toBeLessThanOrEqual(10);
    const share = fromShareFile(JSON.parse(text));
    expect(share?.ok && share.state.preset).toBe('claude-code');
    expect(share?.ok && share.state.view.request).toBe(0);
  });

  it('minimize without --out writes the bundle to stdout', async () => {
    const r = await run(['minimize', orphanFile(), '--predicate', 'pairing:orphan-result@input', '--max-evals', '500']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ tierscope: 1, share: { v: 1 } });
  });
});

describeWild('compaction findings from the CLI (24a90d02, one agent compaction)', () => {
  const CC = wildPath(
    'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl',
  );

  it('minimize keeps a lost item and writes a bundle that says claude-code 2.0.57 and opens the compaction view', async () => {
    const out = join(dir, 'lost.tierscope.json');
    const r = await run(['minimize', CC, '--predicate', 'compaction:main/89:lost:errors', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /minimized 248 → \d+ messages, 122 → \d+ requests.* lost errors "Shell 49a4cf is not running/,
    );
    const text = readFileSync(out, 'utf8');
    const doc = JSON.parse(text) as { format: string; meta: { version: string } };
    expect([doc.format, doc.meta.version]).toEqual(['claude-code', '2.0.57']);
    const share = fromShareFile(JSON.parse(text));
    expect(share?.ok && share.state.view).toMatchObject({ compaction: 'main/agent/0', probe: 'summary.errors.lost.0' });
    // Analyzed again, the bundle names its source format, as the app's load status does.
    const again = await run(['analyze', out]);
    expect(again.out).toMatch(/· claude-code 2\.0\.57 ·/);
  });

  it('minimize keeps a re-fetch after the agent’s compaction', async () => {
    const r = await run(['minimize', CC, '--predicate', 'refetch:after-agent-compaction']);
    expect(r.code).toBe(0);
    const share = fromShareFile(JSON.parse(r.out));
    expect(share?.ok && share.state.view.compaction).toBe('main/agent/0');
  });

  it('share --view opens a given compaction with an item focused; an unknown compaction is refused', async () => {
    const r = await run(['share', CC, '--view', 'compaction=main/agent/0&probe=summary.filesRead.lost.2']);
    expect(r.code).toBe(0);
    const state = await decoded(r.out);
    expect(state.view).toMatchObject({ compaction: 'main/agent/0', probe: 'summary.filesRead.lost.2', thread: null });
    const bad = await run(['share', CC, '--view', 'compaction=main/agent/7']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^tierscope: --view: compaction main\/agent\/7 is not in this transcript \(it has main\/agent\/0\)/,
    );
    const junk = await run(['share', CC, '--view', 'request=x']);
    expect(junk.code).toBe(2);
    expect(junk.err).toMatch(/^tierscope: --view: view.request "x" is not an index/);
  });
});

describe('share and minimize arguments', () => {
  it('exit 2 with a one-line reason', async () => {
    const f = orphanFile();
    const cases: [string[], RegExp][] = [
      [['share', f, '--minimize', 'pairing:nope'], /^tierscope: --minimize: unknown pairing rule "nope"/],
      [['minimize', f], /^tierscope: minimize needs --predicate/],
      [
        ['minimize', f, '--predicate', 'tier:t3=1'],
        /^tierscope: tier:t3=1 does not hold on this transcript \(t3 has tier null\)/,
      ],
      [
        ['minimize', f, '--predicate', 'break:ttl-expired'],
        /does not hold on this transcript \(cache breaks found: none\)/,
      ],
      [['share', f, '--base-url', 'not a url'], /^tierscope: --base-url is not a URL/],
      [['share', f, '--redact-paths'], /^tierscope: --redact-paths needs --redact/],
      [['share', f, '--max-evals', '0'], /^tierscope: --max-evals needs a positive integer/],
      [['share', join(dir, 'missing.jsonl')], /^tierscope: no such file/],
      [['analyze', f, '--redact'], /^tierscope: unknown option --redact/],
      [['minimize', f, '--predicate', 'pairing:orphan-result', '--json'], /^tierscope: unknown option --json/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.split('\n')[0], argv.join(' ')).toMatch(message);
    }
  });

  it('--help lists the new commands', async () => {
    const r = await run(['share', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/tierscope share <file>/);
    expect(r.out).toMatch(/tierscope minimize <file> --predicate/);
  });
});
