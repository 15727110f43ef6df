// Every real fixture (and the wild logs of formats read exactly: Inspect, SWE-agent): loads with zero error-severity
// issues, is detected by content with its file name hidden, and its tierscope bundle re-imports identically (same
// model, same analysis).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { validatePairing } from '../../src/analyses/pairing.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeReal, HAVE_WILD, REAL_DIR, WILD_DIR } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

const EXPECTED: Record<string, string> = {
  'claude-code': 'claude-code',
  'claude-trace': 'claude-trace',
  codex: 'codex',
  inspect: 'inspect',
  'openai-chat': 'openai-chat',
  'swe-agent': 'swe-agent',
};

/** Folders of ../shared/fixtures/wild whose formats are read exactly, so they join these suites. */
const WILD_FORMATS = ['inspect', 'swe-agent'];

/** Fixture paths relative to fixtures/ (`real/…`, `wild/…`); their first folder after that names the format. */
function fixtureFiles(): string[] {
  const out: string[] = [];
  const root = join(REAL_DIR, '..');
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        // sub-agent files are companions of their session file, not inputs on their own
        if (f !== 'subagents') walk(p);
      } else if (!f.endsWith('.md')) out.push(relative(root, p));
    }
  };
  walk(REAL_DIR);
  if (HAVE_WILD) for (const f of WILD_FORMATS) walk(join(WILD_DIR, f));
  return out;
}

function load(rel: string, hideName: boolean): Transcript {
  const p = join(REAL_DIR, '..', rel);
  const main = fileFromPath(p);
  const r = parseTranscript(hideName ? { ...main, name: 'input' } : main, companionFiles(p));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

describeReal('every real fixture', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  for (const rel of fixtureFiles()) {
    const expected = EXPECTED[rel.split('/')[1]];
    it(`${rel}: loads as ${expected} with no errors, also with its name hidden`, () => {
      const t = load(rel, false);
      expect(t.format).toBe(expected);
      expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
      expect(t.threads.length).toBeGreaterThan(0);
      const hidden = load(rel, true);
      expect(hidden.format).toBe(expected);
      expect(exportBundle(hidden)).toBe(exportBundle({ ...t, meta: { ...t.meta, fileName: 'input' } }));
    });

    it(`${rel}: indices are consistent and every tool_result without an earlier tool_use is flagged by the validator`, () => {
      const t = load(rel, false);
      for (const th of t.threads) {
        const uses = new Set<string>();
        const orphans: string[] = [];
        for (const m of th.messages) {
          for (const b of m.blocks) {
            if (b.type === 'tool_use') uses.add(b.id);
            if (b.type === 'tool_result' && !uses.has(b.toolUseId)) orphans.push(b.toolUseId);
          }
          expect(m.index).toBe(th.messages.indexOf(m));
        }
        for (const r of th.requests) expect(r.inputEnd).toBeLessThanOrEqual(th.messages.length);
        const flagged = validatePairing(th.messages, {
          thread: th.id,
          request: 0,
          stage: 'input',
          provider: 'anthropic',
        })
          .filter((v) => v.rule === 'orphan-result')
          .map((v) => v.toolUseId);
        expect(flagged).toEqual(expect.arrayContaining(orphans));
      }
    });

    it(`${rel}: the tierscope bundle re-imports identically and analyses the same`, () => {
      const t = load(rel, false);
      const text = exportBundle(t);
      const back = parseTranscript(fileFromText('x.tierscope.json', text));
      if (!back.ok) throw new Error(back.error);
      expect(back.transcript.format).toBe('tierscope');
      expect(back.transcript.meta.originalFormat).toBe(t.format);
      expect(exportBundle(back.transcript)).toBe(text);
      const opts = {
        config: presetConfig('seeds'),
        preset: 'seeds',
        mode: 'recorded' as const,
        provider: 'anthropic' as const,
        tokenizer: tok,
      };
      const a = analyze(t, opts).report;
      const b = analyze(back.transcript, opts).report;
      expect({ ...b, format: a.format }).toEqual(a);
    });
  }
});
