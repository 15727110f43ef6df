// The scan's row cache (issue 30): what `scan` made of each session, kept between runs in one JSON file per scanned
// folder under the user's cache folder ($TIERSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/tierscope, else
// ~/.cache/tierscope), so a scan of a folder that only grows reads only the sessions whose files changed. A row is
// reused only when every file it was read from has the same stamp (device, inode, size, mtime) and the code is the
// build that made it (a row made by other code is never reused); anything unreadable is a miss, never an error.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hash53 } from '../lib/hash.ts';
import type { SessionFiles } from '../sessions/layout.ts';
import type { ScanOutcome } from '../sessions/scan.ts';
import { codeVersion } from './code-version.ts';

/** What the file holds: the code that made it, the folder, and per session its files' stamps and outcome. */
type CacheFile = {
  tierscope: 'scan-rows';
  code: string;
  root: string;
  rootName: string;
  sessions: Record<string, { files: string; outcome: ScanOutcome }>;
};

/** The folder the cache lives in, from the environment (XDG base directory convention). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TIERSCOPE_CACHE_DIR) return env.TIERSCOPE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'tierscope');
}

export class RowCache {
  private readonly file: string;
  private readonly kept: CacheFile['sessions'];
  private readonly next: CacheFile['sessions'] = {};
  private changed = false;
  private readonly code = codeVersion();

  constructor(
    dir: string,
    private readonly root: string,
    private readonly rootName: string,
    private readonly stamps: ReadonlyMap<string, string>,
  ) {
    this.file = join(dir, `scan-${hash53(root).toString(36)}.json`);
    let kept: CacheFile['sessions'] = {};
    try {
      const f = JSON.parse(readFileSync(this.file, 'utf8')) as CacheFile;
      if (f.tierscope === 'scan-rows' && f.code === this.code && f.root === root && f.rootName === rootName)
        kept = f.sessions;
    } catch {
      // no cache yet, or one that cannot be read: every session is read
    }
    this.kept = kept;
  }

  /** The stamps of a session's files, in the order it reads them (main, then companions by path and name). */
  private filesOf(s: SessionFiles): string | undefined {
    const parts = [`${s.path}|${this.stamps.get(s.path)}`];
    for (const c of s.companions) {
      const st = this.stamps.get(c.path);
      if (st === undefined) return undefined;
      parts.push(`${c.path}|${c.name}|${st}`);
    }
    return this.stamps.has(s.path) ? parts.join('\n') : undefined;
  }

  /** The outcome kept for `s` when none of its files changed. */
  get(s: SessionFiles): ScanOutcome | undefined {
    const files = this.filesOf(s);
    const k = Object.hasOwn(this.kept, s.path) ? this.kept[s.path] : undefined;
    if (files === undefined || !k || k.files !== files) return undefined;
    this.next[s.path] = k;
    return k.outcome;
  }

  put(s: SessionFiles, outcome: ScanOutcome): void {
    const files = this.filesOf(s);
    if (files === undefined) return;
    this.next[s.path] = { files, outcome };
    this.changed = true;
  }

  /** Write what this scan saw (sessions gone from the folder are dropped), when anything changed; atomically (a
   *  temp file renamed), so a scan running beside reads the old file or the new one. Failures are ignored. */
  save(): void {
    if (!this.changed && Object.keys(this.next).length === Object.keys(this.kept).length) return;
    const body: CacheFile = {
      tierscope: 'scan-rows',
      code: this.code,
      root: this.root,
      rootName: this.rootName,
      sessions: this.next,
    };
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(body));
      renameSync(tmp, this.file);
    } catch {
      // a read-only or full disk: the next scan reads the sessions again
    }
  }
}
