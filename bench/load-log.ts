// Load a generated log into an engine as the app would: the session file and, for a Claude Code session, the
// sub-agent files Claude Code 2.x keeps in <session>/subagents/ (the names the folder drop gives them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EngineApi, LoadFile, LoadSummary } from '../worker/api.ts';

function loadFile(path: string, name: string): LoadFile {
  const b = readFileSync(path);
  return { name, buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) };
}

/** The sub-agent files of a Claude Code session file, under the names the folder drop gives them. */
export function subagentFiles(file: string): LoadFile[] {
  const id = basename(file).replace(/\.jsonl$/, '');
  const sub = join(dirname(file), id, 'subagents');
  const agents = existsSync(sub)
    ? readdirSync(sub)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
    : [];
  return agents.map((f) => loadFile(join(sub, f), `${id}/subagents/${f}`));
}

export async function loadLog(engine: EngineApi, file: string): Promise<LoadSummary> {
  const files = [loadFile(file, basename(file)), ...subagentFiles(file)];
  const loaded = await engine.load(files, undefined);
  if (!loaded.ok) throw new Error(loaded.error);
  await engine.counted();
  return loaded;
}
