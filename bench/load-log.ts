// Load a generated log into an engine as the app would: the session file and, for a Claude Code session, the
// sub-agent files Claude Code 2.x keeps in <session>/subagents/ (the names the folder drop gives them). Each is
// named by its path and read slice by slice from disk (`nodeEngineOptions`), as the worker reads a picked File:
// the engine never holds a file's bytes whole.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileFromPath } from '../src/cli/node-input.ts';
import type { EngineApi, LoadFile, LoadSummary } from '../worker/api.ts';
import type { EngineOptions } from '../worker/engine/state.ts';

/** What an engine in Node needs to open the files `loadLog` names by path. */
export const nodeEngineOptions: EngineOptions = { openPath: (path) => fileFromPath(path) };

/** The sub-agent files of a Claude Code session file, under the names the folder drop gives them. */
export function subagentFiles(file: string): LoadFile[] {
  const id = basename(file).replace(/\.jsonl$/, '');
  const sub = join(dirname(file), id, 'subagents');
  const agents = existsSync(sub)
    ? readdirSync(sub)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
    : [];
  return agents.map((f) => ({ name: `${id}/subagents/${f}`, path: join(sub, f) }));
}

/** Load `file` (with its sub-agent files) into an engine made with `nodeEngineOptions`, and wait for its counts. */
export async function loadLog(engine: EngineApi, file: string): Promise<LoadSummary> {
  const files = [{ name: basename(file), path: file }, ...subagentFiles(file)];
  const loaded = await engine.load(files, undefined);
  if (!loaded.ok) throw new Error(loaded.error);
  await engine.counted();
  return loaded;
}
