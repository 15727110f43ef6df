// Compaction findings as minimizer predicates (issue 27), on real sessions: an item the agent's summary lost
// (24a90d02, one auto compaction), a todo the pipeline's summary lost and a re-fetch after the pipeline (the same
// session replayed raw in a 60k window), a re-fetch after the agent's compaction, and a Codex remote compaction
// whose summary cannot be read (wild2 ship rollout). Each holds on the input, is minimized to a few messages that
// still show it — the same compaction (its summary's source line), its folded span, the lost item from the same
// source line — and the reproduction's view opens that compaction view with the lost item focused.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import type { Report } from '../../src/analyses/report.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { ShareSettings } from '../../src/share/payload.ts';
import {
  anchorPredicate,
  describeFindings,
  findWitness,
  formatPredicate,
  parsePredicate,
} from '../../src/share/predicate.ts';
import { type Prepared, prepareShare } from '../../src/share/prepare.ts';
import { encodeView } from '../../src/share/view.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeWild, loadAt, loadWild, SHARED_DIR } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

const CC =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';
const SHIP = 'codex/ship-rollout-2026-03-12T14-37-47-019ce38e-1d19-7260-adc0-9c32ac8b6007.jsonl';
const ERROR = 'Shell 49a4cf is not running, so cannot be killed (status: killed)';
const VOICES = '/Users/pretor/.claude/voice-server/voices.json';

describe('compaction and refetch predicate specs', () => {
  it('parse and format round-trip, thread ids and texts with separators included', () => {
    for (const spec of [
      'compaction:main/89:lost:errors',
      `compaction:main/89:lost:errors=${ERROR}`,
      'compaction:agent:a1/3:lost:filesRead=/a/b=c:d.ts',
      'compaction:team/lead/12:lost:todos',
      'compaction:main/161:unreadable',
      'refetch:after-agent-compaction',
      'refetch:after-pipeline',
      'refetch:after-pipeline#toolu_01FHuC4G5tocp1ot81dKErfJ',
    ])
      expect(formatPredicate(parsePredicate(spec))).toBe(spec);
    expect(parsePredicate('compaction:agent:a1/3:lost:filesRead=/a/b=c:d.ts')).toEqual({
      kind: 'compaction',
      thread: 'agent:a1',
      request: 3,
      finding: { lost: 'filesRead', text: '/a/b=c:d.ts' },
    });
    expect(parsePredicate('compaction:team/lead/12:lost:todos')).toMatchObject({ thread: 'team/lead', request: 12 });
  });

  it('bad specs get a one-line reason', () => {
    expect(() => parsePredicate('compaction:main:lost:errors')).toThrow(/compaction:<thread>\/<request>:lost:<kind>/);
    expect(() => parsePredicate('compaction:main/3:lost:files')).toThrow(
      /unknown probe kind "files" \(one of filesModified/,
    );
    expect(() => parsePredicate('compaction:main/3:kept:errors')).toThrow(/bad compaction predicate/);
    expect(() => parsePredicate('refetch:plain')).toThrow(/refetch:after-agent-compaction\[#<toolUseId>\]/);
  });
});

function settings(set: Record<string, unknown> = {}, o: Partial<ShareSettings> = {}): ShareSettings {
  return {
    preset: 'seeds',
    config: mergeConfig(presetConfig('seeds'), set),
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
    ...o,
  };
}

function messages(t: Transcript): number {
  return t.threads.reduce((n, th) => n + th.messages.length, 0);
}

function reportOf(t: Transcript, s: ShareSettings, tok: CachedTokenizer): Report {
  return analyze(t, { ...s, tokenizer: tok }).report;
}

async function minimized(t: Transcript, s: ShareSettings, spec: string, tok: CachedTokenizer): Promise<Prepared> {
  const r = await prepareShare(t, s, tok, { predicate: parsePredicate(spec), redact: null });
  if (!r.ok) throw new Error(r.error);
  return r;
}

describeWild('compaction findings minimized on real sessions', () => {
  let tok: CachedTokenizer;
  let cc: Transcript;
  let ccReport: Report;
  const raw60k = settings({ contextWindow: 60000 }, { mode: 'raw' });

  beforeAll(async () => {
    tok = await tokenizer();
    cc = loadWild(CC);
    ccReport = reportOf(cc, settings(), tok);
  });

  it('an error string the agent’s summary lost: kept with its compaction, span and source in under 10%', async () => {
    const spec = 'compaction:main/89:lost:errors';
    const agent = ccReport.compactions?.find((c) => c.id === 'main/agent/0');
    expect(agent?.request).toBe(89);
    expect(agent?.probes.errors.lost.map((i) => i.text)).toEqual([ERROR]);
    expect(findWitness(parsePredicate(spec), ccReport)).toMatchObject({
      compaction: 'main/agent/0',
      probe: 'summary.errors.lost.0',
      request: 89,
    });
    const p = await minimized(cc, settings(), spec, tok);
    const t = p.state.source.transcript;
    expect(messages(t)).toBeLessThan(messages(cc) / 10);
    // The same compaction: the agent's summary from the same source line, sent by a request, its span folded.
    const after = reportOf(t, settings(), tok).compactions ?? [];
    const c = after.find((x) => x.source === 'agent');
    expect(c?.line).toBe(agent?.line);
    expect(c?.request).not.toBeNull();
    expect(c && c.span.to - c.span.from).toBeGreaterThan(0);
    // The lost item, from the same source line as in the input.
    const lost = c?.probes.errors.lost[0];
    expect(lost?.text).toBe(ERROR);
    expect(lost?.line).toBe(agent?.probes.errors.lost[0].line);
    // The reproduction opens that compaction view with the lost item focused.
    expect(p.state.view).toMatchObject({ compaction: c?.id, probe: 'summary.errors.lost.0', thread: 'main' });
    expect(encodeView(p.state.view)).toContain(`compaction=${c?.id}&probe=summary.errors.lost.0`);
  });

  it('a read file the summary lost, named by its text: the item from the same source line survives', async () => {
    const spec = `compaction:main/89:lost:filesRead=${VOICES}`;
    const anchored = anchorPredicate(parsePredicate(spec), ccReport);
    const item = ccReport.compactions?.[0].probes.filesRead.lost.find((i) => i.text === VOICES);
    expect(anchored).toMatchObject({ anchor: { source: 'agent', itemLine: item?.line } });
    const p = await minimized(cc, settings(), spec, tok);
    const c = reportOf(p.state.source.transcript, settings(), tok).compactions?.[0];
    const i = c?.probes.filesRead.lost.findIndex((x) => x.text === VOICES) ?? -1;
    expect(i).toBeGreaterThanOrEqual(0);
    expect(c?.probes.filesRead.lost[i].line).toBe(item?.line);
    expect(p.state.view.probe).toBe(`summary.filesRead.lost.${i}`);
    expect(messages(p.state.source.transcript)).toBeLessThan(messages(cc) / 10);
  });

  it('a todo the pipeline’s summary lost (raw replay, 60k window)', async () => {
    // (Until the output estimate moved at the calibrated rate, this window summarized every request and an error
    // was lost at request 85; now the one pipeline summary that loses an item is request 98's, five todos.)
    const report = reportOf(cc, raw60k, tok);
    const pipe = report.compactions?.find((c) => c.source === 'pipeline' && c.probes.todos.lost.length > 0);
    expect(pipe?.request).toBe(98);
    const todo = pipe?.probes.todos.lost[0].text;
    expect(todo).toBeTruthy();
    const p = await minimized(cc, raw60k, `compaction:main/${pipe?.request}:lost:todos`, tok);
    const t = p.state.source.transcript;
    expect(messages(t)).toBeLessThan(messages(cc) / 10);
    const c = reportOf(t, raw60k, tok).compactions?.find((x) => x.id === p.state.view.compaction);
    expect(c?.source).toBe('pipeline');
    expect(c?.probes.todos.lost.map((i) => i.text)).toContain(todo);
    expect(p.state.view.probe).toMatch(/^summary\.todos\.lost\.\d+$/);
  });

  it('a re-fetch after the pipeline lost the result (the 37.1 failure), by its tool id', async () => {
    const id = 'toolu_01FHuC4G5tocp1ot81dKErfJ';
    const found = reportOf(cc, raw60k, tok).refetches.find((f) => f.repeatToolUseId === id);
    expect(found?.kind).toBe('after-pipeline');
    // Recorded (no pipeline lost it): it does not hold, and the message says what was found instead.
    const plain = parsePredicate(`refetch:after-pipeline#${id}`);
    expect(findWitness(plain, ccReport)).toBeNull();
    expect(describeFindings(plain, ccReport)).toMatch(/re-fetches found: .*after-agent-compaction ×3/);
    const p = await minimized(cc, raw60k, `refetch:after-pipeline#${id}`, tok);
    const t = p.state.source.transcript;
    expect(messages(t)).toBeLessThan(messages(cc) / 10);
    const again = reportOf(t, raw60k, tok).refetches.find((f) => f.repeatToolUseId === id);
    expect(again?.kind).toBe('after-pipeline');
    expect(p.state.view.selection).toBe(again?.repeatMessageIndex);
  });

  it('a re-fetch after the agent’s compaction opens that compaction view', async () => {
    const p = await minimized(cc, settings(), 'refetch:after-agent-compaction', tok);
    const t = p.state.source.transcript;
    expect(messages(t)).toBeLessThan(messages(cc) / 10);
    const r = reportOf(t, settings(), tok);
    expect(r.refetches.some((f) => f.kind === 'after-agent-compaction')).toBe(true);
    expect(p.state.view.compaction).toBe(r.compactions?.[0].id);
    expect(r.compactions?.[0].refetchesAfter.count).toBeGreaterThan(0);
  });

  it('a Codex remote compaction whose summary cannot be read', async () => {
    const ship = loadAt(join(SHARED_DIR, 'fixtures/wild2', SHIP), SHIP);
    const s = settings({}, { provider: 'openai-responses' });
    const report = reportOf(ship, s, tok);
    const opaque = report.compactions?.find((c) => c.opaque);
    expect(opaque).toMatchObject({ id: 'main/agent/0', request: 161, source: 'agent' });
    // A compaction that is readable (or none at that request) does not hold.
    expect(findWitness(parsePredicate('compaction:main/160:unreadable'), report)).toBeNull();
    expect(describeFindings(parsePredicate('compaction:main/160:unreadable'), report)).toContain(
      'main/161 (agent, unreadable)',
    );
    const p = await minimized(ship, s, 'compaction:main/161:unreadable', tok);
    const t = p.state.source.transcript;
    expect(messages(t)).toBeLessThan(messages(ship) / 10);
    const c = reportOf(t, s, tok).compactions?.[0];
    expect(c?.opaque).toBe(true);
    expect(c?.line).toBe(opaque?.line);
    expect(p.state.view).toMatchObject({ compaction: c?.id, probe: null });
  });

  it('a finding that does not hold is refused with what the report has', async () => {
    const r = await prepareShare(cc, settings(), tok, {
      predicate: parsePredicate('compaction:main/89:lost:filesModified'),
      redact: null,
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatch(/does not hold .*main\/89 \(agent, lost filesRead ×5 errors ×1 identifiers ×17\)/);
  });
});
