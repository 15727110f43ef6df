// Where the fixtures are (../shared/fixtures/real and wild, beside the repo) and which of their files a user
// would open as inputs. No test framework here, so scripts (scripts/estimate-accuracy.ts) can list them too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_DIR = resolve(REPO_ROOT, '../shared');
export const REAL_DIR = join(SHARED_DIR, 'fixtures/real');
export const WILD_DIR = join(SHARED_DIR, 'fixtures/wild');

/** One input among the fixtures: its path, where it is listed (`real/…`, `wild/…`) and the format it is. */
export type FixtureInput = { path: string; rel: string; format: string };

const FORMAT_OF_FOLDER: Record<string, string> = {
  'claude-code': 'claude-code',
  'claude-trace': 'claude-trace',
  codex: 'codex',
  inspect: 'inspect',
  'openai-chat': 'openai-chat',
  'swe-agent': 'swe-agent',
};

/** The sessionId of a Claude Code file (its first line that names one). */
function sessionIdOf(path: string): string | undefined {
  for (const line of readFileSync(path, 'utf8').split('\n', 50)) {
    const m = /"sessionId":"([^"]+)"/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Every input file of fixtures/real and fixtures/wild, as a user would open it: provenance notes, sub-agent
 * folders and `.meta.json` files are left out (they come with their session), and so are 2.0 sibling
 * `agent-*.jsonl` files whose session is in the same folder (an agent file whose session is not there is an
 * input of its own).
 */
export function fixtureInputs(roots: readonly string[] = [REAL_DIR, WILD_DIR]): FixtureInput[] {
  const out: FixtureInput[] = [];
  const walk = (root: string, dir: string) => {
    const names = readdirSync(dir).sort();
    const sessions = new Set(
      names
        .filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'))
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
      if (f.startsWith('agent-') && f.endsWith('.jsonl') && sessions.has(sessionIdOf(p) ?? '')) continue;
      const rel = relative(dirname(root), p);
      out.push({ path: p, rel, format: FORMAT_OF_FOLDER[relative(root, p).split('/')[0]] });
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root, root);
  return out;
}
