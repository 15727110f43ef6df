// Redaction (SPEC §7): on every real fixture no ≥ 4-character word of the original survives except kept
// identifiers (ids, tool names, models, structure — and paths when kept), structure and pairing are intact,
// and token counts stay within a few percent; filler keeps length and script per character; secrets are
// always replaced and listed, even in secrets-only mode and inside kept paths; two shares fill differently.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { toBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { fillText, rngFrom, swapChar } from '../../src/share/filler.ts';
import { pathSpans } from '../../src/share/paths.ts';
import { type RedactionPreview, redactTranscript } from '../../src/share/redact.ts';
import { findSecrets } from '../../src/share/secrets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';
import { realFixtures } from './helpers.ts';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function addWords(s: string, into: Set<string>): void {
  for (const m of s.matchAll(WORD)) if (m[0].length >= 4) into.add(m[0].toLowerCase());
}

/** Words of every string, key and number of a JSON value. */
function allWords(v: unknown, into = new Set<string>()): Set<string> {
  if (typeof v === 'string') addWords(v, into);
  else if (typeof v === 'number') addWords(String(v), into);
  else if (Array.isArray(v)) for (const x of v) allWords(x, into);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      addWords(k, into);
      allWords(x, into);
    }
  return into;
}

/** Fields that hold identifiers, not content (SPEC §7: ids, tool names kept; plus models, enums, structure). */
const IDENTIFIER_KEYS = new Set([
  'id',
  'toolUseId',
  'tool_use_id',
  'call_id',
  'name',
  'uuid',
  'requestId',
  'sessionId',
  'version',
  'model',
  'type',
  'role',
  'kind',
  'shape',
  'format',
  'originalFormat',
  'severity',
  'thread',
  'parentToolUseId',
  'compaction',
  'boundary',
  'file',
  'path',
  'mediaType',
  'media_type',
  'detail',
  'status',
  'model_provider',
  'originator',
  'source',
  'exit_status',
  'why',
]);
const SCHEMA_PROSE = new Set(['description', 'title', 'default', 'examples', 'example', '$comment']);

/** Words a redacted bundle may still contain: keys, numbers and identifier values of the original — never
 *  anything inside tool inputs (all content but paths), text, thinking, results, descriptions or titles. */
function identifierWords(bundle: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, key: string | undefined, inSchema: boolean, prose: boolean): void => {
    if (typeof v === 'string') {
      if (inSchema ? !prose : key !== undefined && IDENTIFIER_KEYS.has(key)) addWords(v, out);
    } else if (typeof v === 'number') addWords(String(v), out);
    else if (Array.isArray(v)) for (const x of v) walk(x, key, inSchema, prose);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      for (const [k, x] of Object.entries(o)) {
        addWords(k, out);
        if (k === 'input' && (o.type === 'tool_use' || o.type === 'server_tool_use')) {
          allKeys(x, out);
          continue;
        }
        if (k === 'cwd' || k === 'fileName') continue; // paths: only allowed when kept (via keptPaths)
        walk(x, k, inSchema || k === 'inputSchema', prose || (inSchema && SCHEMA_PROSE.has(k)));
      }
    }
  };
  walk(bundle, undefined, false, false);
  return out;
}

/** Keys and numbers of a tool input (its string values are content). */
function allKeys(v: unknown, into: Set<string>): void {
  if (typeof v === 'number') addWords(String(v), into);
  else if (Array.isArray(v)) for (const x of v) allKeys(x, into);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      addWords(k, into);
      allKeys(x, into);
    }
}

/** Original words (≥ 4 chars) found in the redacted bundle that are not kept identifiers. */
function leaks(t: Transcript, redacted: Transcript, preview: RedactionPreview): string[] {
  const original = allWords(toBundle(t));
  const allowed = identifierWords(toBundle(t));
  for (const p of preview.keptPaths) addWords(p, allowed);
  return [...allWords(toBundle(redacted))].filter((w) => original.has(w) && !allowed.has(w)).sort();
}

function shape(t: Transcript) {
  return t.threads.map((th) => ({
    id: th.id,
    requests: th.requests.map((r) => [r.index, r.inputEnd, r.responseEnd, r.exactInput?.length]),
    messages: th.messages.map((m) => [
      m.index,
      m.role,
      m.blocks.map((b) =>
        b.type === 'tool_use' ? `tu:${b.id}:${b.name}` : b.type === 'tool_result' ? `tr:${b.toolUseId}` : b.type,
      ),
    ]),
  }));
}

describeReal('redaction on every real fixture', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  for (const rel of realFixtures()) {
    it(`${rel}: no original word survives but identifiers; structure, pairing and tokens stay`, () => {
      const t = loadReal(rel);
      for (const keepPaths of [false, true]) {
        const { transcript: red, preview } = redactTranscript(t, { tokenizer: tok, keepPaths });
        expect(leaks(t, red, preview)).toEqual([]);
        if (!keepPaths) expect(preview.keptPaths).toEqual([]);
        for (const p of preview.keptPaths) expect(p).toMatch(/^\S+$/);
        expect(shape(red)).toEqual(shape(t));
        const settings = {
          config: presetConfig('seeds'),
          preset: 'seeds',
          mode: 'recorded' as const,
          provider: 'anthropic' as const,
          tokenizer: tok,
        };
        const strip = (xs: { error: string }[]) => xs.map(({ error: _e, ...v }) => v);
        expect(strip(analyze(red, settings).report.pairing)).toEqual(strip(analyze(t, settings).report.pairing));
        const tokens = preview.tokens ?? { before: 0, after: 0 };
        // Measured on the fixtures: +0 % to +8.8 % (paths kept), up to +12 % for the smallest ones.
        expect(Math.abs(tokens.after - tokens.before)).toBeLessThanOrEqual(Math.max(3, 0.15 * tokens.before));
        if (keepPaths) {
          // A second share of the same transcript fills it differently (the filler is drawn per share, never from
          // the text), with the same structure.
          const again = redactTranscript(t, { tokenizer: tok, keepPaths }).transcript;
          expect(shape(again)).toEqual(shape(red));
          if (preview.counts.strings > 0) expect(JSON.stringify(again) === JSON.stringify(red)).toBe(false);
        }
      }
    });
  }
});

const SECRETS = {
  anthropic: 'sk-ant-api03-Zx9QmW2rT7yLp4Kd8VbN1cF6hJ3sG5aE0uI-abcdEFGH',
  openai: 'sk-proj-4fT9xQ2mL7pW1zR8kD3vN6bH0cJ5sG',
  github: 'ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  bearer: 'Qm9vZ2llV29vZ2llQm9vZ2llV29vZ2ll',
  email: 'grace.hopper@navy.example.com',
};

const WITH_SECRETS = transcript(`
U Deploy with key ${SECRETS.anthropic} and mail ${SECRETS.email}
-
A tu(a) Bash {"command":"curl -H 'Authorization: Bearer ${SECRETS.bearer}' https://api.example.com"}
-
U tr(a) "export OPENAI_API_KEY=${SECRETS.openai}\\nAWS_ACCESS_KEY_ID=${SECRETS.aws}\\ntoken ${SECRETS.github}"
-
A tu(b) Read /home/grace/keys/${SECRETS.github}.txt
-
U tr(b) "jwt: ${SECRETS.jwt}"
-
A Done.
`);

describe('secrets are always replaced and listed', () => {
  for (const content of [true, false]) {
    it(`content redaction ${content ? 'on' : 'off (secrets only)'}`, () => {
      const { transcript: red, preview } = redactTranscript(WITH_SECRETS, { content, keepPaths: true });
      const json = JSON.stringify(red);
      for (const [kind, secret] of Object.entries(SECRETS)) expect(json, kind).not.toContain(secret);
      expect(preview.secrets.map((s) => s.secret).sort()).toEqual([
        'anthropic-key',
        'aws-key',
        'bearer-token',
        'email',
        'github-token',
        'jwt',
        'openai-key',
      ]);
      expect(preview.secrets.find((s) => s.secret === 'github-token')?.occurrences).toBe(2);
      expect(preview.counts.secrets).toBe(8);
      // The preview never shows a whole secret.
      for (const s of preview.secrets)
        for (const secret of Object.values(SECRETS)) expect(s.before).not.toContain(secret);
      // Ids and tool names are kept; the path around the secret is kept in both modes. A secret is filled
      // whole, its kind prefix too, so the link does not look like it holds a key (the preview names the kind).
      expect(json).toContain('"id":"a"');
      expect(json).toContain('"name":"Read"');
      expect(json).toMatch(/\/home\/grace\/keys\/[a-z]{3}_[A-Za-z0-9]{36}\.txt/);
      // (Context patterns — `Bearer …`, `KEY=…`, e-mail shape — still see the filler in its context.)
      const context = new Set(['email', 'bearer-token', 'basic-auth', 'assigned-secret']);
      expect(findSecrets(json).filter((h) => !context.has(h.kind))).toEqual([]);
      expect(preview.secrets.find((s) => s.secret === 'anthropic-key')?.before).toMatch(/^sk-ant-api03-…/);
      if (!content) {
        expect(json).toMatch(/Deploy with key [a-z]{2}-[a-z]{3}-[a-z]{3}\d\d-/);
        expect(preview.changes).toEqual([]);
      }
    });
  }

  it('finds each kind on its own and ignores look-alikes', () => {
    const kinds = (s: string) => findSecrets(s).map((h) => h.kind);
    expect(kinds(`x ${SECRETS.aws} y`)).toEqual(['aws-key']);
    expect(kinds('password = "hunter2hunter2"')).toEqual(['assigned-secret']);
    expect(kinds(`max_tokens = 100000, token: 12345678, password: $\{DB_PASSWORD}`)).toEqual([]);
    expect(kinds('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----')).toEqual(['private-key']);
    expect(kinds('xoxb-123456789012-abcdefABCDEF and AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q')).toEqual([
      'slack-token',
      'google-key',
    ]);
  });
});

describe('filler', () => {
  const CLASSES: [string, RegExp][] = [
    ['upper', /^[A-Z]$/],
    ['lower', /^[a-z]$/],
    ['digit', /^[0-9]$/],
    ['han', /^\p{Script=Han}$/u],
    ['hiragana', /^\p{Script=Hiragana}$/u],
    ['katakana', /^\p{Script=Katakana}$/u],
    ['hangul', /^\p{Script=Hangul}$/u],
    ['cyrillic', /^\p{Script=Cyrillic}$/u],
    ['greek', /^\p{Script=Greek}$/u],
    ['letter', /^\p{L}$/u],
    ['number', /^\p{Nd}$/u],
  ];
  const classOf = (ch: string) => CLASSES.find(([, re]) => re.test(ch))?.[0] ?? `kept:${ch}`;
  const chars = fc.oneof(
    fc.constantFrom(...'aZ9 \n\t.,;:/_-()[]{}"\'!?@#'),
    fc.constantFrom(...'漢字語日本中文한국어ひらがなカタカナーабвгДЖΑβγéÉçÑ٣７'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const text = fc.array(chars, { maxLength: 80 }).map((xs) => xs.join(''));

  it('keeps length (code points and UTF-16), script and case per character, punctuation and whitespace', () => {
    fc.assert(
      fc.property(text, (s) => {
        const out = fillText(s, { rng: rngFrom(3), vocab: new Set() });
        expect(out.length).toBe(s.length);
        const a = Array.from(s);
        const b = Array.from(out);
        expect(b.length).toBe(a.length);
        a.forEach((ch, i) => {
          expect(classOf(b[i]), `${JSON.stringify(ch)} → ${JSON.stringify(b[i])}`).toBe(classOf(ch));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('draws from the stream it is given (never from the text) and never reproduces a vocabulary word', () => {
    const vocab = new Set(['window', 'apple', 'garden', 'parser']);
    const s = 'parseTranscript reads the window; getUserName returns 2024 apples';
    const a = fillText(s, { rng: rngFrom(7), vocab });
    expect(fillText(s, { rng: rngFrom(7), vocab })).toBe(a);
    expect(fillText(s, { rng: rngFrom(8), vocab })).not.toBe(a);
    expect(a).not.toBe(s);
    for (const m of a.matchAll(WORD)) expect(vocab.has(m[0].toLowerCase())).toBe(false);
    expect(a).toMatch(/^[a-z]+[A-Z][a-z]+ [a-z]+ [a-z]+ [a-z]+; [a-z]+[A-Z][a-z]+[A-Z][a-z]+ [a-z]+ \d{4} [a-z]+$/);
  });

  it('keeps kept spans verbatim', () => {
    const s = 'edit src/share/codec.ts and /etc/hosts but not https://example.com/a/b.ts';
    const spans = pathSpans(s);
    expect(spans.map((p) => s.slice(p.start, p.end))).toEqual(['src/share/codec.ts', '/etc/hosts']);
    const out = fillText(s, { rng: rngFrom(5), vocab: new Set() }, spans);
    expect(out).toContain('src/share/codec.ts');
    expect(out).toContain('/etc/hosts');
    expect(out).not.toContain('example');
  });

  it('swaps digits of other scripts for digits of the same script', () => {
    const rng = rngFrom(1);
    for (const d of ['٣', '７', '৫']) expect(swapChar(d, rng)).toMatch(/^\p{Nd}$/u);
  });
});

describe('preview', () => {
  it('lists where, kind, clipped before/after, with counts; repeated strings are listed once', () => {
    const long = Array(100).fill('word').join(' ');
    const t = transcript(`
U ${long}
-
A tu(a) Read notes.md
-
U tr(a) "${long}"
-
A Done.
`);
    const { preview } = redactTranscript(t, { previewLimit: 1 });
    expect(preview.changes).toHaveLength(1);
    expect(preview.changes[0]).toMatchObject({
      where: { thread: 'main', message: 0, block: 0, field: 'text' },
      kind: 'text',
    });
    expect(preview.changes[0].before.endsWith('…')).toBe(true);
    expect(Array.from(preview.changes[0].before)).toHaveLength(121);
    expect(preview.changes[0].occurrences).toBe(2);
    expect(preview.counts.byKind).toEqual({ text: 2, 'tool-result': 1 });
    expect(preview.counts.omitted).toBe(1);
    expect(preview.counts.strings).toBe(3);
    expect(preview.keptPaths).toEqual(['notes.md']);
  });
});
