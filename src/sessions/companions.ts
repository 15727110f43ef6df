// The files that belong to a session of the agents added in issue 31, beside or below its main file, so the CLI
// (from disk), the scan and the app read a session whole: a Cline / Roo task's `ui_messages.json` (usage) and
// `task_metadata.json` (models) beside `api_conversation_history.json`; a Cline 4 session's manifest `<id>.json`
// beside `<id>.messages.json`; a Gemini CLI chat's sub-agent chats in `chats/<parent session id>/` (the file name
// holds the id's first 8 characters: `session-<time>-<id8>.json[l]`); an SQLite database's `-wal` file. Pure: it
// sees paths, and `list(dir)` names a folder's entries ('/'-separated, relative to the same root as `path`).

export type Companion = { path: string; name: string };

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

/** Files that are part of another file's session, never sessions of their own. */
export const COMPANION_NAMES = new Set([
  'ui_messages.json',
  'task_metadata.json',
  'context_history.json',
  'hooks.jsonl',
]);

/** Whether `path` is a Cline 4 session manifest (`<id>/<id>.json` beside `<id>.messages.json`). */
export function isSessionManifest(path: string, has: (p: string) => boolean): boolean {
  const base = baseOf(path);
  return (
    base.endsWith('.json') &&
    !base.endsWith('.messages.json') &&
    has(join(dirOf(path), `${base.slice(0, -5)}.messages.json`))
  );
}

/** A Gemini CLI chat file: `session-YYYY-MM-DDTHH-MM-<id8>.json[l]` in a `chats` folder. */
const GEMINI_CHAT = /^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-([0-9A-Za-z_-]{1,8})\.jsonl?$/;

export function agentCompanions(path: string, list: (dir: string) => { name: string; dir: boolean }[]): Companion[] {
  const dir = dirOf(path);
  const base = baseOf(path);
  const files = (d: string) => list(d).filter((e) => !e.dir);
  if (base === 'api_conversation_history.json')
    return files(dir)
      .filter((e) => e.name === 'ui_messages.json' || e.name === 'task_metadata.json')
      .map((e) => ({ path: join(dir, e.name), name: e.name }));
  if (base.endsWith('.messages.json')) {
    const manifest = `${base.slice(0, -'.messages.json'.length)}.json`;
    return files(dir)
      .filter((e) => e.name === manifest)
      .map((e) => ({ path: join(dir, e.name), name: e.name }));
  }
  if (base.endsWith('.db'))
    return files(dir)
      .filter((e) => e.name === `${base}-wal`)
      .map((e) => ({ path: join(dir, e.name), name: e.name }));
  const chat = GEMINI_CHAT.exec(base);
  if (chat && baseOf(dir) === 'chats') {
    const out: Companion[] = [];
    for (const sub of list(dir).filter((e) => e.dir && e.name.startsWith(chat[1])))
      for (const f of files(join(dir, sub.name)))
        if (/\.jsonl?$/.test(f.name))
          out.push({ path: join(join(dir, sub.name), f.name), name: `${sub.name}/${f.name}` });
    return out;
  }
  return [];
}
