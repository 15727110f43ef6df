// Where agents keep their sessions on this machine: what `tierscope` with no arguments (and `serve` without a folder)
// serves. One table, a row per home — its folder under $HOME, the label printed for it, and the format it holds (a
// hint: the scan still reads each file's own format); the label, as a slug, names the home's folder in the served
// tree when several are found. Claude Code and Codex here, the agents of issue 31 from sessions/agent-homes.ts; a
// new agent is a new row.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_HOMES, type AgentHome } from '../sessions/agent-homes.ts';

export const HOMES: readonly AgentHome[] = [
  { path: '.claude/projects', label: 'Claude Code', format: 'claude-code' },
  { path: '.codex/sessions', label: 'Codex', format: 'codex' },
  ...AGENT_HOMES,
];

/** The homes that exist under `home`, with their absolute folders and their names in the served tree. */
export function foundHomes(
  home: string,
  homes: readonly AgentHome[] = HOMES,
): (AgentHome & { dir: string; name: string })[] {
  return homes.flatMap((h) => {
    const dir = join(home, h.path);
    const name = h.label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    return existsSync(dir) && statSync(dir).isDirectory() ? [{ ...h, dir, name }] : [];
  });
}
