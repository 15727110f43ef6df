// Every fixture of fixtures/real and fixtures/wild, as a user opens it: loads with its format and zero
// error-severity issues, also with its file name hidden; indices are consistent and orphan results are flagged;
// no request the provider accepted (it has recorded usage) gets a pairing error blamed on its recorded input;
// the tool results counted are the ones the log wrote; and the tierscope bundle re-imports identically.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { validatePairing } from '../../src/pairing/validate.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeReal, type FixtureInput, fixtureInputs } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

function load(f: FixtureInput, hideName: boolean): Transcript {
  const main = fileFromPath(f.path);
  const r = parseTranscript(hideName ? { ...main, name: 'input' } : main, companionFiles(f.path));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

const jsonLines = (text: string) =>
  text.split('\n').flatMap((l) => {
    try {
      return l.trim() ? [JSON.parse(l) as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });

/** Tool results as the log wrote them, counted without the parser: Claude Code's distinct tool_result ids over
 *  the session and the sub-agent files it was read with, Codex's output items. Undefined for other formats. */
function writtenResults(f: FixtureInput, t: Transcript): number | undefined {
  if (f.format === 'claude-code') {
    const read = new Set(t.threads.flatMap((th) => th.messages.map((m) => m.source.file ?? '')));
    const texts = [readFileSync(f.path, 'utf8')];
    for (const c of companionFiles(f.path)) {
      if (read.has(c.name)) texts.push(new TextDecoder().decode(Buffer.concat([...c.chunks()])));
    }
    const ids = new Set<string>();
    for (const o of texts.flatMap(jsonLines)) {
      const content = (o.message as { content?: unknown } | undefined)?.content;
      if (o.type !== 'user' || !Array.isArray(content)) continue;
      for (const b of content) if (b?.type === 'tool_result') ids.add(String(b.tool_use_id));
    }
    return ids.size;
  }
  if (f.format === 'codex') {
    // The main rollout's outputs, its attached children's (their replay of the parent's included), and the
    // "aborted" outputs Codex sends for calls the log never answers (codex.ts answerDanglingCalls).
    const outputs = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);
    const files = [f.path, ...(t.meta.attached ?? []).map((n) => join(dirname(f.path), n))];
    const written = files
      .flatMap((p) => jsonLines(readFileSync(p, 'utf8')))
      .filter((o) => o.type === 'response_item' && outputs.has(String((o.payload as { type?: unknown })?.type))).length;
    const synthetic = t.threads
      .flatMap((th) => th.messages)
      .filter((m) => m.synthetic)
      .reduce((n, m) => n + m.blocks.filter((b) => b.type === 'tool_result').length, 0);
    return written + synthetic;
  }
  return undefined;
}

describeReal('every fixture (real and wild)', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  for (const f of fixtureInputs()) {
    it(`${f.rel}: loads as ${f.format} with no errors, also with its name hidden`, () => {
      const t = load(f, false);
      expect(t.format).toBe(f.format);
      expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
      expect(t.threads.length).toBeGreaterThan(0);
      const hidden = load(f, true);
      expect(hidden.format).toBe(f.format);
      expect(exportBundle(hidden)).toBe(exportBundle({ ...t, meta: { ...t.meta, fileName: 'input' } }));
    });

    it(`${f.rel}: indices are consistent and every tool_result without an earlier tool_use is flagged`, () => {
      const t = load(f, false);
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

    it(`${f.rel}: no request with recorded usage has a pairing error on its recorded input; results as written`, () => {
      const t = load(f, false);
      const provider = logDefaults(t).provider.value; // the log's provider (SPEC §1.1)
      const report = analyze(t, {
        config: presetConfig('seeds'),
        preset: 'seeds',
        mode: 'recorded',
        provider,
        tokenizer: tok,
      }).report;
      const billed = new Set(
        t.threads.flatMap((th) => th.requests.filter((r) => r.observed).map((r) => `${th.id}#${r.index}`)),
      );
      const blamed = report.pairing.filter(
        (v) => v.stage === 'input' && v.severity === 'error' && billed.has(`${v.thread}#${v.request}`),
      );
      expect(blamed).toEqual([]);
      const written = writtenResults(f, t);
      // A rewound turn's results were written too but are on no active branch (SPEC §8 counts the active one).
      const rewound = (t.meta.skipped?.['inactive-branch'] ?? 0) > 0;
      if (written !== undefined && !rewound) expect(report.counts.toolResults).toBe(written);
      if (written !== undefined && rewound) expect(report.counts.toolResults).toBeLessThanOrEqual(written);
    });

    it(`${f.rel}: the tierscope bundle re-imports identically and analyses the same`, () => {
      const t = load(f, false);
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
