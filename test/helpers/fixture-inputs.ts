// Where the fixtures are (../shared/fixtures/real, wild and wild2 beside the repo, and the repo's own
// test/fixtures) and which of their files a user would open as inputs. No test framework here, so scripts
// (scripts/estimate-accuracy.ts) can list them too.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_DIR = resolve(REPO_ROOT, '../shared');
export const REAL_DIR = join(SHARED_DIR, 'fixtures/real');
export const WILD_DIR = join(SHARED_DIR, 'fixtures/wild');
export const WILD2_DIR = join(SHARED_DIR, 'fixtures/wild2');
/** The repo's own fixtures of shapes ../shared lacks (Codex forks, PDFs, cache-miss reasons), each kind with its
 *  PROVENANCE.md; stored gzip-compressed (`test/fixtures`). */
const REPO_FIXTURES_GZ = join(REPO_ROOT, 'test/fixtures');

/**
 * The repo's fixtures as a user has them on disk: decompressed once into a folder under the system temp folder named
 * by a hash of the stored files (a session's companions and a folder of rollouts are found as they would be in
 * ~/.claude/projects or ~/.codex/sessions). Parallel test workers each write their own copy and keep the first.
 */
function repoFixturesDir(): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(relative(REPO_FIXTURES_GZ, p));
    }
  };
  if (!existsSync(REPO_FIXTURES_GZ)) return REPO_FIXTURES_GZ;
  walk(REPO_FIXTURES_GZ);
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}:${statSync(join(REPO_FIXTURES_GZ, f)).size}\n`);
  const dir = join(tmpdir(), `tierscope-repo-fixtures-${h.digest('hex').slice(0, 16)}`);
  if (existsSync(dir)) return dir;
  const work = mkdtempSync(`${dir}-`);
  for (const f of files) {
    const bytes = readFileSync(join(REPO_FIXTURES_GZ, f));
    const out = join(work, f.endsWith('.gz') ? f.slice(0, -3) : f);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, f.endsWith('.gz') ? gunzipSync(bytes) : bytes);
  }
  try {
    renameSync(work, dir);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another worker was first
  }
  return dir;
}

export const REPO_FIXTURES_DIR = repoFixturesDir();
/** Every fixture folder the accuracy, pairing and cache-break checks run over. */
const ALL_FIXTURE_DIRS = [REAL_DIR, WILD_DIR, WILD2_DIR, REPO_FIXTURES_DIR] as const;

/** One input among the fixtures: its path, where it is listed (`real/…`, `wild/…`) and the format it is. */
export type FixtureInput = { path: string; rel: string; format: string };

/** The format of a fixture by its top folder (`claude-code-pdf` is a Claude Code folder, `codex-fork` a Codex one). */
const FORMAT_OF_FOLDER: [RegExp, string][] = [
  [/^claude-code/, 'claude-code'],
  [/^claude-trace/, 'claude-trace'],
  [/^codex/, 'codex'],
  [/^inspect/, 'inspect'],
  [/^openai-chat/, 'openai-chat'],
  [/^(mini-)?swe-agent/, 'swe-agent'],
];

/** The first lines of a file as text (gzip-compressed files are decompressed). */
function headText(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8', 0, 1 << 20);
}

/** The sessionId of a Claude Code file (its first line that names one). */
function sessionIdOf(path: string): string | undefined {
  for (const line of headText(path).split('\n', 50)) {
    const m = /"sessionId":"([^"]+)"/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The parent a Codex rollout was forked or spawned from (its first `session_meta`), if any. */
function codexParentOf(path: string): string | undefined {
  const first = headText(path).split('\n', 1)[0];
  return /"forked_from_id":"([^"]+)"/.exec(first)?.[1] ?? /"parent_thread_id":"([^"]+)"/.exec(first)?.[1];
}

/**
 * Every input file of fixtures/real and fixtures/wild, as a user would open it: provenance notes, sub-agent
 * folders and `.meta.json` files are left out (they come with their session), and so are 2.0 sibling
 * `agent-*.jsonl` files whose session is in the same folder (an agent file whose session is not there is an
 * input of its own).
 */
export function fixtureInputs(roots: readonly string[] = ALL_FIXTURE_DIRS): FixtureInput[] {
  const out: FixtureInput[] = [];
  const walk = (root: string, dir: string) => {
    const names = readdirSync(dir).sort();
    const jsonl = (f: string) => f.endsWith('.jsonl') || f.endsWith('.jsonl.gz');
    const sessions = new Set(
      names
        .filter((f) => jsonl(f) && !f.startsWith('agent-'))
        .map((f) => sessionIdOf(join(dir, f)))
        .filter((x): x is string => x !== undefined),
    );
    for (const f of names) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'subagents') walk(root, p);
        continue;
      }
      if (f.endsWith('.md') || f.endsWith('.meta.json')) continue;
      if (f.startsWith('agent-') && jsonl(f) && sessions.has(sessionIdOf(p) ?? '')) continue;
      const top = relative(root, p).split('/')[0];
      const format = FORMAT_OF_FOLDER.find(([re]) => re.test(top))?.[1] ?? 'unknown';
      // A Codex child whose parent rollout is in the same folder comes with its parent, as a sub-agent.
      const parent = format === 'codex' && jsonl(f) ? codexParentOf(p) : undefined;
      if (parent && names.some((n) => n.includes(parent) && n !== f)) continue;
      const rel = root === REPO_FIXTURES_DIR ? join('fixtures', relative(root, p)) : relative(dirname(root), p);
      out.push({ path: p, rel, format });
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root, root);
  return out;
}
