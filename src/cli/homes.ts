// Where agents keep their sessions on this machine: what `tierscope` with no arguments (and `serve` without a folder)
// serves. One table, a row per home — its folder under $HOME, the label printed for it, and the format it holds (a
// hint: the scan still reads each file's own format); the format also names the home's folder in the served tree
// when several are found. A new agent is a new row.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type Home = { path: string; label: string; format: string };

export const HOMES: readonly Home[] = [
  { path: '.claude/projects', label: 'Claude Code', format: 'claude-code' },
  { path: '.codex/sessions', label: 'Codex', format: 'codex' },
];

/** The homes that exist under `home`, with their absolute folders. */
export function foundHomes(home: string, homes: readonly Home[] = HOMES): (Home & { dir: string })[] {
  return homes.flatMap((h) => {
    const dir = join(home, h.path);
    return existsSync(dir) && statSync(dir).isDirectory() ? [{ ...h, dir }] : [];
  });
}
