// The compaction audit (issue 17) on crafted compactions: a summary that keeps every modified file, one that drops
// the file being edited and is followed by its re-read (probes, re-fetches after, tokens per task), and the
// pipeline's own summarize stage audited the same way.
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnalyzeOptions, analyze } from '../../src/analyses/analyze.ts';
import { buildLedger, todoSites } from '../../src/analyses/ledger.ts';
import { fold, probeSummary } from '../../src/analyses/probes.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { type CachedTokenizer, createTokenizer, ENCODINGS } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { loop } from '../helpers/loop.ts';
import { configOf, type RunOptions, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const MODEL = 'claude-sonnet-4-5-20250929';

/** A session that edits two files, hits an error, keeps a todo list, then compacts with `summary`; after it, `after`. */
function session(summary: string, after: string): Transcript {
  return transcript(`
U Fix the login bug in /home/dev/app/src/auth.ts please
A{model=${MODEL},usage=10/1000/100} tu(a) Read /home/dev/app/src/auth.ts
U tr(a) 400 chars
A{model=${MODEL},usage=10/1050/100} tu(r) Read /home/dev/app/README.md
U tr(r) 300 chars
A{model=${MODEL},usage=10/1100/100} tu(b) Edit /home/dev/app/src/auth.ts
U tr(b) ok
A{model=${MODEL},usage=10/1200/100} tu(c) Bash npm test
U tr!(c) "Error: expected 200, got 401\\n    at login.test.ts:12"
A{model=${MODEL},usage=10/1300/100} tu(d) TodoWrite {"todos":[{"content":"Fix token refresh in session.ts","status":"in_progress"},{"content":"Run the tests","status":"completed"}]}
U tr(d) ok
A{model=${MODEL},usage=10/1400/100} tu(e) Edit {"file_path":"/home/dev/app/src/session.ts","old_string":"x","new_string":"export function refreshToken(s) {}"}
U tr(e) ok
A{model=${MODEL},usage=10/1500/100} I am editing session.ts next.
-
U summary ${summary}
${after}`);
}

const AFTER_REREAD = `A{model=${MODEL},usage=10/400/900} tu(f) Read /home/dev/app/src/session.ts
U tr(f) 800 chars
A{model=${MODEL},usage=10/500/900} tu(g) Read /home/dev/app/README.md
U tr(g) 300 chars
A{model=${MODEL},usage=10/600/900} Done.
-
U Now also update the changelog for this fix
A{model=${MODEL},usage=10/700/100} OK.`;

function baseOptions(o: RunOptions): AnalyzeOptions {
  return {
    config: configOf(o),
    preset: o.preset ?? 'seeds',
    mode: o.mode ?? 'recorded',
    provider: 'anthropic',
    tokenizer: tk,
  };
}

function run(t: Transcript, o: RunOptions = {}) {
  return analyze(t, baseOptions(o));
}

describe('probes of an agent compaction (issue 17)', () => {
  it('a summary that keeps every modified file, the error, the todo and the instruction keeps them all', () => {
    const summary =
      'Edited ~/app/src/auth.ts and `src/session.ts` (added refreshToken). Read auth.ts and README.md. Error: "expected 200, got 401". Open: Fix token refresh in session.ts. The user asked: Fix the login bug in /home/dev/app/src/auth.ts please';
    const a = run(session(summary, AFTER_REREAD));
    const c = a.report.compactions?.[0];
    expect(a.report.compactions).toHaveLength(1);
    expect(c).toMatchObject({ source: 'agent', thread: 'main', request: 7, messageIndex: 14, trigger: null });
    expect(c?.span).toEqual({ from: 0, to: 14, firstRequest: 0, lastRequest: 6 });
    const p = c?.probes;
    expect(p?.filesModified.lost).toEqual([]);
    expect(p?.filesModified.kept.map((x) => [x.text, x.match])).toEqual([
      ['/home/dev/app/src/auth.ts', 'exact'],
      ['/home/dev/app/src/session.ts', 'normalized'],
    ]);
    expect(p?.errors.kept.map((x) => [x.text, x.match])).toEqual([['Error: expected 200, got 401', 'normalized']]);
    expect(p?.todos.kept.map((x) => x.text)).toEqual(['Fix token refresh in session.ts']);
    expect(p?.identifiers.kept.map((x) => x.text)).toEqual(['refreshToken']);
    expect(p?.instructions.kept.map((x) => x.match)).toEqual(['exact']);
    expect(p?.filesRead.kept.map((x) => [x.text, x.match])).toEqual([['/home/dev/app/README.md', 'basename']]);
    // Nothing lost → only the repeat of README.md counts (its content was folded either way).
    expect(c?.refetchesAfter.items.map((x) => [x.why, x.lostItem])).toEqual([['repeat', null]]);
  });

  it('a summary that drops the file being edited is followed by its re-read: lost, linked, counted and priced', () => {
    const summary = 'Worked on the login bug in /home/dev/app/src/auth.ts; tests ran.';
    const t = session(summary, AFTER_REREAD);
    const a = run(t);
    const c = a.report.compactions?.[0];
    const p = c?.probes;
    expect(p?.filesModified.kept.map((x) => x.text)).toEqual(['/home/dev/app/src/auth.ts']);
    // The lost item names the message (and line) it came from: the Edit of session.ts.
    expect(p?.filesModified.lost).toEqual([
      {
        text: '/home/dev/app/src/session.ts',
        messageIndex: 11,
        line: t.threads[0].messages[11].source.line,
        tool: 'Edit',
        toolUseId: 'e',
        match: null,
      },
    ]);
    expect(p?.errors.lost.map((x) => [x.text, x.toolUseId])).toEqual([['Error: expected 200, got 401', 'c']]);
    expect(p?.todos.lost.map((x) => x.text)).toEqual(['Fix token refresh in session.ts']);
    expect(p?.identifiers.lost.map((x) => x.text)).toEqual(['refreshToken']);
    const after = c?.refetchesAfter;
    expect(after?.items.map((x) => [x.why, x.toolUseId, x.lostItem])).toEqual([
      ['lost-path', 'f', '/home/dev/app/src/session.ts'],
      ['repeat', 'g', '/home/dev/app/README.md'],
    ]);
    const resultTokens = (id: string) => a.report.toolResults.find((r) => r.toolUseId === id)?.tokens ?? Number.NaN;
    expect(after?.tokens).toBe(resultTokens('f') + resultTokens('g'));
    expect(after?.count).toBe(2);
    // Priced at the repeat's model: a cache write of the re-fetched tokens (Sonnet 4.5: $3.75 per million).
    expect(after?.usd).toBeCloseTo(((resultTokens('f') + resultTokens('g')) * 3.75) / 1e6, 8);
  });

  it('tokens per task: the re-read lands in the task it was made in, recorded and replayed', () => {
    const t = session('Worked on the login bug.', AFTER_REREAD);
    const a = run(t);
    const tasks = a.report.tasks ?? [];
    expect(tasks.map((x) => [x.firstRequest, x.lastRequest, x.messageIndex])).toEqual([
      [0, 9, 0],
      [10, 10, 20],
    ]);
    const refetched = a.report.compactions?.[0].refetchesAfter.tokens ?? 0;
    expect(refetched).toBeGreaterThan(0);
    expect(tasks[0].refetchTokens).toBe(refetched);
    expect(tasks[0].recorded.refetchTokens).toBe(refetched);
    expect(tasks[1].refetchTokens).toBe(0);
    // Recorded tokens: the observed prompt + output of its requests (usage 10 + read + write, output 10).
    const observed = t.threads[0].requests
      .slice(0, 10)
      .reduce((n, r) => n + (r.observed ? r.observed.input + r.observed.cacheRead + r.observed.cacheWrite + 10 : 0), 0);
    expect(tasks[0].recorded.tokens).toBe(observed);
    expect(a.report.taskTotals?.tasks).toBe(2);
    expect(a.report.taskTotals?.refetchTokens).toBe(refetched);
  });
});

describe('the pipeline’s own summaries are audited the same way', () => {
  const opts: RunOptions = {
    set: { contextWindow: 12_000, outputReserve: 0, tiersEnabled: false, hardcap: { enabled: false } },
  };
  const work = () =>
    loop([
      { tool: 'Read', args: 'src/a.go', result: '3000 chars' },
      { tool: 'Edit', args: 'src/b.go', result: '"ok"' },
      { tool: 'Bash', args: 'go build', result: '"Error: undefined: Session"', error: true },
      ...Array.from({ length: 24 }, (_, i) => ({ tool: 'Bash', args: `go test ./pkg${i}`, result: '3000 chars' })),
      { tool: 'Read', args: 'src/a.go', result: '3000 chars' },
    ]);

  it('the anchored summary keeps every modified file and error of its span; the re-read of a folded file follows it', () => {
    const a = run(work(), opts);
    const pipe = (a.report.compactions ?? []).filter((c) => c.source === 'pipeline');
    expect(pipe.length).toBeGreaterThanOrEqual(1);
    const first = pipe[0];
    expect(first.messageIndex).toBeNull();
    expect(first.preTokensBasis).toBe('counted');
    expect(first.probes.filesModified.kept.map((x) => x.text)).toEqual(['src/b.go']);
    expect(first.probes.filesModified.lost).toEqual([]);
    expect(first.probes.filesRead.kept.map((x) => x.text)).toEqual(['src/a.go']);
    expect(first.probes.errors.kept.map((x) => x.text)).toEqual(['Error: undefined: Session']);
    // The last Read of src/a.go repeats a call the first summary folded: an after-effect of that summary (and of no
    // later one, although it comes after them too).
    const reread = first.refetchesAfter.items.find((x) => x.tool === 'file_read');
    expect(reread).toMatchObject({ why: 'repeat', firstToolUseId: 't0' });
    expect(a.report.refetches.find((r) => r.repeatToolUseId === reread?.toolUseId)?.kind).toBe('after-pipeline');
    for (const later of pipe.slice(1)) expect(later.refetchesAfter.items).toEqual([]);
  });

  it('the anchored summary’s tokens, summed from its header’s parts and its lines, equal counting it whole', async () => {
    for (const encoding of ENCODINGS) {
      const tok = await createTokenizer(encoding);
      const a = analyze(work(), { ...baseOptions(opts), tokenizer: tok });
      const pipe = a.audit.compactions.filter((c) => c.source === 'pipeline');
      expect(pipe.length).toBeGreaterThanOrEqual(2);
      for (const c of pipe) expect(c.anchoredTokens).toBe(tok.count(a.audit.texts.get(c.id)?.anchored ?? ''));
    }
  });

  it('a ledger made with the parts and marks kept from other spans equals one made from scratch', () => {
    const th = work().threads[0];
    const n = th.messages.length;
    const sites = todoSites(th);
    const parts = new WeakMap();
    const nothing = new Uint8Array(n);
    for (const [from, to] of [
      [0, n],
      [3, 10],
      [5, n - 2],
      [0, n],
      [n - 4, n + 3],
    ])
      expect(buildLedger(th, from, to, sites, parts, nothing)).toEqual(buildLedger(th, from, to));
    expect(nothing.includes(1)).toBe(true);
  });

  it('a pipeline summary probed through its sections’ lines keeps and loses what probing its text does', () => {
    const a = run(work(), opts);
    const pipe = a.audit.compactions.filter((c) => c.source === 'pipeline');
    expect(pipe.length).toBeGreaterThanOrEqual(2);
    for (const c of pipe) {
      const texts = a.audit.texts.get(c.id);
      expect(texts).toBeDefined();
      if (texts) expect(c.probes).toEqual(probeSummary(texts.summary, texts.ledger));
    }
  });

  it('the anchored summary is made when first read, and a row reads as its spread copy does', () => {
    const counted: string[] = [];
    const count = (s: string) => {
      counted.push(s);
      return tk.count(s);
    };
    const tok = { encoding: tk.encoding, count };
    const a = analyze(work(), { ...baseOptions(opts), tokenizer: tok });
    const pipe = a.audit.compactions.filter((c) => c.source === 'pipeline');
    expect(pipe.length).toBeGreaterThanOrEqual(2);
    const head = '[Tierscope anchored summary of messages ';
    expect(counted).not.toContain(head);
    for (const c of pipe) {
      const spread = { ...c };
      expect(counted).toContain(head);
      expect(JSON.stringify(c)).toBe(JSON.stringify(spread));
      expect(Object.keys(c)).toEqual(Object.keys(spread));
    }
  });

  it('a pipeline compaction’s text (what its view shows) is its summary’s, made when read', () => {
    const a = run(work(), opts);
    const pipe = a.audit.compactions.filter((c) => c.source === 'pipeline');
    const events = a.replay.threads[0].requests.flatMap((q) => q.events).filter((e) => e.action === 'summarize');
    expect(pipe.length).toBe(events.length);
    pipe.forEach((c, i) => {
      const b = events[i].after;
      const summary = a.audit.texts.get(c.id)?.summary;
      expect(summary).toMatch(/^\[Summary #\d+ /);
      expect(summary).toBe(b?.type === 'text' ? b.text : '');
    });
  });
});

describe('matching rules', () => {
  const ledgerOf = (src: string) => {
    const th = transcript(src).threads[0];
    return buildLedger(th, 0, th.messages.length);
  };
  it('a basename counts only when no other ledger path shares it; a bare word never matches a longer name', () => {
    const l = ledgerOf(`U Please fix both configs now
A tu(a) Edit /x/one/config.ts
U tr(a) ok
A tu(b) Edit /x/two/config.ts
U tr(b) ok
A tu(c) Edit /x/two/server.ts
U tr(c) ok`);
    const p = probeSummary('Changed config.ts twice and server.tsx', l);
    expect(p.filesModified.kept).toEqual([]);
    expect(p.filesModified.lost.map((x) => x.text)).toEqual([
      '/x/one/config.ts',
      '/x/two/config.ts',
      '/x/two/server.ts',
    ]);
    expect(probeSummary('see server.ts', l).filesModified.kept.map((x) => [x.text, x.match])).toEqual([
      ['/x/two/server.ts', 'basename'],
    ]);
  });
  it('short replies are not instructions; folding ignores case, quotes and spacing', () => {
    const l = ledgerOf(`U ja
A ok
U Make the   Retry limit configurable
A ok`);
    expect(l.instructions.map((x) => x.text)).toEqual(['Make the   Retry limit configurable']);
    expect(fold('Make the `Retry`  limit')).toBe('make the retry limit');
    // Every whitespace run becomes one space, whatever its characters (the fold replaces only runs that change).
    const alphabet = [' ', ' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\ufeff', '\u3000', 'a', 'B', '"', '\\', 'Σ'];
    let seed = 7;
    for (let i = 0; i < 5000; i++) {
      let s = '';
      for (let n = i % 13; n > 0; n--) {
        seed = (seed * 48271) % 2147483647;
        s += alphabet[seed % alphabet.length];
      }
      const plain = s.toLowerCase().replace(/\\/g, '/').replace(/["]/g, '').replace(/\s+/g, ' ').trim();
      expect(fold(s)).toBe(plain);
    }
    expect(probeSummary('user: "make the retry limit configurable"', l).instructions.kept[0].match).toBe('normalized');
  });
});
