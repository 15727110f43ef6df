// Redaction's text scans stay linear on hostile text (issue 29: found while sharing a tool result of 3 MB of random
// characters). The e-mail pattern tried a match from every position of a long run (200 KB: 200 s) and the relative-path
// pattern backtracked through every run of path characters (80 KB: 0.5 s, 3 MB: minutes); both now start once per run.
// A hang shows as a timeout here; the work is ~1 s for each of these megabytes.
import { describe, expect, it } from 'vitest';
import { pathSpans } from '../../src/share/paths.ts';
import { redactTranscript } from '../../src/share/redact.ts';
import { findKeptSecrets, findSecrets, scanStrings } from '../../src/share/secrets.ts';
import { transcript } from '../helpers/dsl.ts';
import { ALNUM, noise } from '../helpers/noise.ts';

const TEXTS: [string, string][] = [
  ['one run of letters and digits', noise(1 << 20, ALNUM)],
  ['base64 with path separators', noise(1 << 20, `${ALNUM}+/`)],
  ['dots, dashes and @ (e-mail and path characters)', noise(1 << 20, `${ALNUM}._%+-@/`)],
];

describe('secret and path scans over a megabyte of hostile text', () => {
  for (const [name, text] of TEXTS) {
    it(name, { timeout: 60_000 }, () => {
      expect(Array.isArray(findSecrets(text))).toBe(true);
      expect(Array.isArray(findKeptSecrets(text))).toBe(true);
      expect(Array.isArray(pathSpans(text))).toBe(true);
      expect(scanStrings([text, 'x'])).toHaveLength(2);
    });
  }

  it('a redacted share of such a tool result', { timeout: 120_000 }, () => {
    const t = transcript('U go\n-\nA tu(a) Bash ls\n-\nU tr(a) "x"\n-\nA done');
    const result = t.threads[0].messages[2].blocks[0];
    if (result.type !== 'tool_result') throw new Error('no result');
    result.content = noise(1 << 20, `${ALNUM}._%+-@/`);
    const r = redactTranscript(t);
    const out = r.transcript.threads[0].messages[2].blocks[0];
    expect(out.type === 'tool_result' && out.content.length).toBe(1 << 20);
  });
});
