// Which files of a folder are sessions, and which files belong to each (SPEC §6 Sessions, §8 `scan`): a folder laid
// out like ~/.claude/projects (a folder per project, `<id>.jsonl` per session, sub-agents in `<id>/subagents/` or as
// sibling `agent-*.jsonl`), Codex's sessions/YYYY/MM/DD/rollout-*.jsonl, folders of Inspect logs, Gemini CLI's
// tmp/<project>/chats/, Cline and Roo task folders, Cline 4 sessions, opencode's database — or any mix. Pure: it
// sees relative paths only, so the CLI (from disk) and the worker (from a dropped folder) group alike.

import { agentCompanions, COMPANION_NAMES, isSessionManifest } from './companions.ts';

export type FolderEntry = { path: string; size: number };

export type SessionFiles = {
  path: string;
  /** Companion files as the parser gets them: path relative to the folder, and name relative to the session's. */
  companions: { path: string; name: string }[];
  /** The folder the session sits in (its last segment; the scanned folder's own name at the top). */
  folder: string;
  size: number;
};

const CANDIDATE = /\.(jsonl|json|eval|traj|db)$/i;

/** A Codex rollout's file name (`rollout-<time>-<id>.jsonl`, also with a prefix). */
export const isRolloutName = (base: string) => /(^|-)rollout-\d{4}-\d\d-\d\dT[\d-]+-[0-9a-f-]+\.jsonl$/i.test(base);

/**
 * The rollouts of a folder that may be forks or sub-agents of rollout `base`: those named after it (a child starts
 * after its parent, and the names begin with the start time). The Codex parser reads only their first line and keeps
 * the ones that descend from the session; a child the parser attaches is listed under its parent by `scan`.
 */
export function codexCandidates(base: string, siblings: readonly string[]): string[] {
  const stamp = (n: string) => /rollout-(.*)$/i.exec(n)?.[1] ?? n;
  return siblings.filter((f) => f !== base && isRolloutName(f) && stamp(f) > stamp(base)).sort();
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A file that is never a session of its own: sub-agent files, their metadata, a session's other files (a Cline
 *  task's ui messages, a Cline 4 manifest, a Gemini CLI sub-agent chat, its prompt log), hidden files, non-logs. */
function notASession(path: string, has: (p: string) => boolean): boolean {
  const base = baseOf(path);
  if (!CANDIDATE.test(base) || base.startsWith('.') || base.endsWith('.meta.json')) return true;
  if (hidden(path) || path.split('/').includes('subagents')) return true;
  if (COMPANION_NAMES.has(base) || isSessionManifest(path, has)) return true;
  // opencode's data folder: its sessions are in opencode.db; storage/ holds the legacy JSON (and diffs, todos).
  if (/(^|\/)storage\/(session|message|part|session_diff|todo|project|snapshot|session_share)\//.test(path))
    return true;
  // Gemini CLI: sub-agent chats sit in chats/<parent session id>/; logs.json beside chats/ holds prompts only.
  if (
    baseOf(dirOf(dirOf(path))) === 'chats' ||
    (base === 'logs.json' && has(`${dirOf(path) ? `${dirOf(path)}/` : ''}chats`))
  )
    return true;
  return isAgentLog(path);
}

/** A Claude Code sub-agent log: a 2.0 sibling `agent-*.jsonl`, or any `.jsonl` in a 2.1 `<id>/subagents/` folder. */
export function isAgentLog(name: string): boolean {
  if (!name.endsWith('.jsonl')) return false;
  return /(^|\/)subagents\//.test(name) || baseOf(name).startsWith('agent-');
}

/** A path no scan looks into: hidden files and folders, node_modules. */
const hidden = (path: string) => path.split('/').some((seg) => seg.startsWith('.') || seg === 'node_modules');

/**
 * The sub-agent logs of a listing whose paths are not in `read` (the companions the sessions' parsers read, and those
 * of skipped sessions): their session file is missing, or another folder holds it. Each is a session of its own,
 * billed all the same, in the folder its session would sit in. Path order.
 */
export function unreadAgentLogs(
  entries: readonly FolderEntry[],
  rootName: string,
  read: ReadonlySet<string>,
): SessionFiles[] {
  const out: SessionFiles[] = [];
  for (const e of entries) {
    const path = normalizePath(e.path);
    if (e.size === 0 || !isAgentLog(path) || read.has(path) || hidden(path)) continue;
    const segs = path.split('/');
    const sub = segs.lastIndexOf('subagents');
    // <project>/<session id>/subagents/<file>, or <project>/agent-<id>.jsonl
    const at = sub >= 0 ? sub - 2 : segs.length - 2;
    out.push({ path, companions: [], folder: at >= 0 ? segs[at] : rootName, size: e.size });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Normalize a path as the scan names it: '/'-separated, no leading './' or '/'. */
function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
}

/**
 * The sessions of a folder listing, in path order. Companions of `<dir>/<id>.jsonl` are what the CLI's
 * `companionFiles` reads beside a file: `<dir>/<id>/subagents/*.jsonl|*.meta.json`, then `<dir>/agent-*.jsonl`
 * (2.0.x; the parser keeps those of the same session).
 */
export function sessionsOf(entries: readonly FolderEntry[], rootName: string): SessionFiles[] {
  const byDir = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  for (const e of entries) {
    const p = normalizePath(e.path);
    sizes.set(p, e.size);
    const d = dirOf(p);
    const list = byDir.get(d);
    if (list) list.push(p);
    else byDir.set(d, [p]);
  }
  // Folders too, for the tests that look for a sibling folder (Gemini CLI's chats/).
  const dirs = new Set<string>();
  for (const d of byDir.keys()) for (let x = d; x; x = dirOf(x)) dirs.add(x);
  const has = (p: string) => sizes.has(p) || dirs.has(p);
  const list = (d: string) => [
    ...(byDir.get(d) ?? []).map((f) => ({ name: baseOf(f), dir: false })),
    ...[...dirs].filter((x) => dirOf(x) === d).map((x) => ({ name: baseOf(x), dir: true })),
  ];
  const out: SessionFiles[] = [];
  for (const p of [...sizes.keys()].sort()) {
    if (notASession(p, has) || sizes.get(p) === 0) continue;
    const dir = dirOf(p);
    const base = baseOf(p);
    const companions: SessionFiles['companions'] = agentCompanions(p, list);
    if (companions.length === 0 && isRolloutName(base)) {
      const names = (byDir.get(dir) ?? []).map(baseOf);
      for (const f of codexCandidates(base, names)) companions.push({ path: dir ? `${dir}/${f}` : f, name: f });
    } else if (companions.length === 0 && base.toLowerCase().endsWith('.jsonl')) {
      const id = base.slice(0, -'.jsonl'.length);
      const sub = dir ? `${dir}/${id}/subagents` : `${id}/subagents`;
      for (const f of (byDir.get(sub) ?? []).slice().sort())
        if (f.endsWith('.jsonl') || f.endsWith('.meta.json'))
          companions.push({ path: f, name: `${id}/subagents/${baseOf(f)}` });
      for (const f of (byDir.get(dir) ?? []).slice().sort()) {
        const b = baseOf(f);
        if (b.startsWith('agent-') && b.endsWith('.jsonl')) companions.push({ path: f, name: b });
      }
    }
    out.push({ path: p, companions, folder: dir ? baseOf(dir) : rootName, size: sizes.get(p) ?? 0 });
  }
  return out;
}
