// Node-side input: stream a file from disk in chunks (no whole-file string) and discover the
// companion files a Claude Code session may have (2.x sub-agent files) next to it.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SourceFile } from '../formats/types.ts';

/** A SourceFile that reads `path` in `chunkSize` chunks each time it is iterated. */
export function fileFromPath(path: string, chunkSize = 1 << 20): SourceFile {
  const size = statSync(path).size;
  return {
    name: basename(path),
    size,
    chunks: function* () {
      const fd = openSync(path, 'r');
      try {
        let pos = 0;
        while (pos < size) {
          const buf = new Uint8Array(Math.min(chunkSize, size - pos));
          const n = readSync(fd, buf, 0, buf.length, pos);
          if (n <= 0) break;
          pos += n;
          yield n === buf.length ? buf : buf.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * Companion files of a Claude Code session `<dir>/<id>.jsonl`: `<dir>/<id>/subagents/agent-*.jsonl` with their
 * `.meta.json` (2.1.x) and sibling `<dir>/agent-*.jsonl` files (2.0.x; the parser keeps only those with the same
 * sessionId).
 */
export function companionFiles(path: string): SourceFile[] {
  const dir = dirname(path);
  const name = basename(path);
  if (!name.endsWith('.jsonl') || name.startsWith('agent-')) return [];
  const id = name.slice(0, -'.jsonl'.length);
  const out: string[] = [];
  const sub = join(dir, id, 'subagents');
  if (existsSync(sub)) {
    for (const f of readdirSync(sub).sort())
      if (f.endsWith('.jsonl') || f.endsWith('.meta.json')) out.push(join(sub, f));
  }
  for (const f of readdirSync(dir).sort()) {
    if (f.startsWith('agent-') && f.endsWith('.jsonl')) out.push(join(dir, f));
  }
  return out.map((p) => ({
    ...fileFromPath(p),
    name: p.startsWith(sub) ? `${id}/subagents/${basename(p)}` : basename(p),
  }));
}
