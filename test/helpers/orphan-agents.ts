// The Claude Code sub-agent files of a folder whose session file is not in it, found without the scan's code: a
// 2.1 file in `<session id>/subagents/` without `<session id>.jsonl` beside that folder, a 2.0 `agent-*.jsonl` whose
// lines name a session with no `<id>.jsonl` beside it. `scan` makes each a row of its own (sessions/scan.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { firstSessionIdOf } from './claude-code-lines.ts';

/** Every file under `dir`, as paths relative to it. */
export function walk(dir: string, rel = ''): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    const r = rel ? `${rel}/${f}` : f;
    return statSync(p).isDirectory() ? walk(p, r) : [r];
  });
}

/** Paths relative to `root`, sorted. */
export function orphanAgentFiles(root: string): string[] {
  const files = walk(root);
  const has = new Set(files);
  return files
    .filter((p) => p.endsWith('.jsonl') && statSync(join(root, p)).size > 0)
    .filter((p) => {
      const sub = p.indexOf('/subagents/');
      if (sub >= 0) return !has.has(`${p.slice(0, sub)}.jsonl`);
      const base = p.slice(p.lastIndexOf('/') + 1);
      if (!base.startsWith('agent-')) return false;
      const dir = p.includes('/') ? `${p.slice(0, p.lastIndexOf('/'))}/` : '';
      return !has.has(`${dir}${firstSessionIdOf(readFileSync(join(root, p), 'utf8'))}.jsonl`);
    })
    .sort();
}
