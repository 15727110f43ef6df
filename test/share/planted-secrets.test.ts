// Redaction covers every string of a share (issue 19, item 1): a secret planted in every string field, in a
// new key and value of every object, of every format's model (the inline samples) is in neither the redacted
// link nor the `.tierscope.json` download — with paths kept or not — and the Claude Code log (a key in
// sessionId, a token in an MCP tool name, an e-mail as a tool-input key, a key inside file_path, a password
// in a URL under repo_dir) shares through the CLI with none of the five left.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { fromBase64Url, inflateRaw } from '../../src/share/bytes.ts';
import { shareValue } from '../../src/share/link.ts';
import { findSecrets } from '../../src/share/secrets.ts';
import { DEFAULT_VIEW } from '../../src/share/view.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { SAMPLES } from '../fuzz/samples.ts';
import { toolCallLines } from '../helpers/claude-code-lines.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A unique body of `n` characters of `alphabet` for plant `i`. */
function body(i: number, n: number, alphabet = ALNUM): string {
  let x = (i + 1) * 2654435761;
  let out = '';
  for (let k = 0; k < n; k++) {
    x = (Math.imul(x ^ (x >>> 13), 1274126177) + k * 97) >>> 0;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/** The secret shapes the issue lists, each around a unique body (of this length) that must not survive. */
const SHAPES: [(x: string) => string, number, string?][] = [
  [(x) => `sk-ant-api03-${x}`, 40],
  [(x) => `prod_sk-ant-api03-${x}`, 40],
  [(x) => `ghp_${x}`, 36],
  [(x) => `glpat-${x}`, 20],
  [(x) => `npm_${x}`, 36],
  [(x) => `hf_${x}`, 34, ALNUM.slice(0, 52)],
  [(x) => `dev.${x}@example.com`, 18],
  [(x) => `https://alice:${x}@git.example.com/r.git`, 18],
  [(x) => `postgres://app:${x}@db.internal:5432/prod`, 18],
  [(x) => `AWS_SECRET_ACCESS_KEY=${x}`, 40],
  [(x) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n${x}\n-----END PGP PRIVATE KEY BLOCK-----`, 48],
  [(x) => `AKIA${x}`, 16, ALNUM.slice(0, 26) + ALNUM.slice(52)],
];

/** Fields whose values are enums of the model: a secret there would make the value invalid, not shared. */
const ENUMS = new Set([
  'type',
  'role',
  'kind',
  'severity',
  'shape',
  'compaction',
  'boundary',
  'format',
  'originalFormat',
  'why',
]);

type Planted = { value: unknown; bodies: string[] };

/** A copy of `v` with a secret in every string (appended) and a secret key and value added to every object. */
function plant(v: unknown): Planted {
  const bodies: string[] = [];
  let n = 0;
  const next = () => {
    const i = n++;
    const [shape, len, alphabet] = SHAPES[i % SHAPES.length];
    const b = body(i, len, alphabet);
    bodies.push(b);
    return shape(b);
  };
  const walk = (x: unknown, key?: string): unknown => {
    if (typeof x === 'string') return key !== undefined && ENUMS.has(key) ? x : `${x} ${next()}`;
    if (Array.isArray(x)) return x.map((y) => walk(y, key));
    if (typeof x === 'object' && x !== null) {
      const entries: [string, unknown][] = Object.entries(x).map(([k, y]) => [k, walk(y, k)]);
      entries.push([next(), next()]);
      return Object.fromEntries(entries);
    }
    return x;
  };
  return { value: walk(v), bodies };
}

async function linkJson(encoded: string): Promise<string> {
  const value = shareValue(`#s=${encoded}`) ?? '';
  const packed = fromBase64Url(value.slice(2));
  if (!packed) throw new Error('not base64url');
  return new TextDecoder().decode(await inflateRaw(packed));
}

const settings = {
  preset: 'seeds',
  config: presetConfig('seeds'),
  mode: 'recorded' as const,
  provider: 'anthropic' as const,
  encoding: 'o200k_base' as const,
};

describe('a secret in every field of every format is in neither the redacted link nor the download', () => {
  for (const sample of SAMPLES) {
    it(sample.name, async () => {
      const parsed = parseTranscript(fileFromText(`x.${sample.jsonl ? 'jsonl' : 'json'}`, sample.text));
      if (!parsed.ok) throw new Error(parsed.error);
      const { value, bodies } = plant(parsed.transcript);
      const t = value as Transcript;
      expect(bodies.length).toBeGreaterThan(50);
      const engine = createEngine();
      const loaded = await engine.load(
        [{ name: 'planted.tierscope.json', buffer: new TextEncoder().encode(exportBundle(t)).buffer as ArrayBuffer }],
        undefined,
      );
      if (!loaded.ok) throw new Error(loaded.error);
      // The view points at a thread whose id carries a secret too.
      const view = { ...DEFAULT_VIEW, thread: loaded.threads[0].id };
      expect(bodies.some((b) => view.thread.includes(b))).toBe(true);
      const plain = await engine.share({ settings, view, redact: null });
      if (!plain.ok) throw new Error(plain.error);
      // Unredacted, the link carries what the bundle kept of them (fields the import drops are gone), and the
      // dialog counts every one of those.
      const plainLink = await linkJson(plain.encoded);
      const shipped = bodies.filter((b) => plainLink.includes(b));
      expect(shipped.length).toBeGreaterThan(bodies.length * 0.85);
      expect(plain.secretCount).toBeGreaterThanOrEqual(shipped.length);
      for (const keepPaths of [true, false]) {
        const r = await engine.share({ settings, view, redact: { keepPaths } });
        if (!r.ok) throw new Error(r.error);
        const link = await linkJson(r.encoded);
        const file = (await engine.shareFile({ settings, view, redact: { keepPaths } })) ?? '';
        expect(file.length).toBeGreaterThan(1000);
        expect(bodies.filter((b) => link.includes(b))).toEqual([]);
        expect(bodies.filter((b) => file.includes(b))).toEqual([]);
        // The link still opens on the thread the view named.
        const other = createEngine();
        const opened = await other.openShare(`http://127.0.0.1/#s=${r.encoded}`);
        if (!opened.ok) throw new Error(opened.error);
        expect(opened.kind === 'transcript' && opened.summary.threads.map((x) => x.id)).toContain(opened.view.thread);
      }
    });
  }
});

describe("the issue's Claude Code log through the CLI", () => {
  const KEY = `sk-ant-api03-${body(1, 60)}`;
  const GH = `ghp_${body(2, 36)}`;
  const MAIL = `ops.${body(3, 12)}@corp.example.com`;
  const INPATH = `sk-ant-api03-${body(4, 50)}`;
  const PASS = body(5, 16);
  const lines = toolCallLines({
    sessionId: KEY,
    name: `mcp__github_${GH}__clone`,
    input: {
      [MAIL]: 'owner',
      file_path: `/home/me/keys/${INPATH}.txt`,
      repo_dir: `https://me:${PASS}@github.example.com/me/repo`,
    },
    result: 'cloned',
  });

  it('share --redact replaces all five and says so', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-planted-'));
    try {
      const path = join(dir, 'session.jsonl');
      writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      for (const redact of [['--redact'], ['--redact', '--redact-paths']]) {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(['share', path, ...redact], { out: (s) => out.push(s), err: (s) => err.push(s) });
        expect(code, err.join('\n')).toBe(0);
        const json = await linkJson(out.join('').trim().split('#s=')[1]);
        for (const secret of [KEY.slice(13), GH.slice(4), MAIL.slice(4, 16), INPATH.slice(13), PASS])
          expect(json).not.toContain(secret);
        const replaced = Number(/(\d+) secret-looking strings replaced/.exec(err.join('\n'))?.[1]);
        expect(replaced).toBeGreaterThanOrEqual(5);
        expect(findSecrets(json).filter((h) => h.kind !== 'email')).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
