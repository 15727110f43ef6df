// Node-side input: stream a file from disk in chunks (no whole-file string; any byte range read on its own, for an
// engine a Node host loads by path), discover the companion files a
// Claude Code session may have (2.x sub-agent files) next to it, and take stdin, pipes and gzip files (fflate's
// gunzip fed in bounded slices: a bomb stops at the limit, and bytes after the last gzip member are ignored with a
// note, as `gunzip` does, instead of losing what decompressed before them).

import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Gunzip } from 'fflate';
import { overFileLimit } from '../formats/limits.ts';
import type { ByteSource, SourceFile } from '../formats/types.ts';
import { slices } from '../lib/slices.ts';
import { agentCompanions } from '../sessions/companions.ts';
import { codexCandidates, isRolloutName } from '../sessions/layout.ts';

/** A source that reads `path` in `chunkSize` chunks each time it is iterated (from the start or from an offset),
 *  and any byte range on its own; the file is open only while it is read, the size is the one it had when opened. */
export function fileFromPath(path: string, chunkSize = 1 << 20): ByteSource {
  const size = statSync(path).size;
  const from = function* (offset: number) {
    const fd = openSync(path, 'r');
    try {
      let pos = offset;
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
  };
  return {
    name: basename(path),
    size,
    chunks: () => from(0),
    chunksFrom: from,
    read: (start, end) => {
      const a = Math.min(Math.max(0, start), size);
      const buf = new Uint8Array(Math.max(a, Math.min(end, size)) - a);
      const fd = openSync(path, 'r');
      try {
        let got = 0;
        while (got < buf.length) {
          const n = readSync(fd, buf, got, buf.length - got, a + got);
          if (n <= 0) break;
          got += n;
        }
        return got === buf.length ? buf : buf.subarray(0, got);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * Companion files of a Claude Code session `<dir>/<id>.jsonl`: `<dir>/<id>/subagents/agent-*.jsonl` with their
 * `.meta.json` (2.1.x) and sibling `<dir>/agent-*.jsonl` files (2.0.x; the parser keeps only those with the same
 * sessionId). Of a Codex rollout: the later rollouts of its folder (codexCandidates; the parser keeps its forks and
 * sub-agents).
 */
export function companionFiles(path: string): SourceFile[] {
  const dir = dirname(path);
  const name = basename(path);
  const list = (d: string) => {
    try {
      return readdirSync(d || '.', { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
    } catch {
      return [];
    }
  };
  const agents = agentCompanions(path.replace(/\\/g, '/'), list);
  if (agents.length > 0) return agents.map((c) => ({ ...fileFromPath(c.path), name: c.name }));
  if (isRolloutName(name))
    return codexCandidates(name, readdirSync(dir)).map((f) => ({ ...fileFromPath(join(dir, f)), name: f }));
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

/** What `openInput` hands the parser: the main file, its companions, notes for the parse issues, and a cleanup. */
export type OpenedInput = { main: SourceFile; companions: SourceFile[]; notes: string[]; cleanup: () => void };

const GZ_NAME = /\.(gz|gzip)$/i;

/** Copy a byte stream to `path`, stopping past `cap` bytes; a stream that fails mid-way keeps what arrived. */
async function spoolTo(
  source: AsyncIterable<Uint8Array>,
  path: string,
  cap: number,
): Promise<{ bytes: number; over: boolean; error?: string }> {
  const fh = await open(path, 'w');
  let bytes = 0;
  try {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > cap) return { bytes, over: true };
      await fh.write(chunk);
    }
  } catch (e) {
    return { bytes, over: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await fh.close();
  }
  return { bytes, over: false };
}

/** The decompressed bytes of a gzip stream (every member), in pieces of at most a few MB; `done` says how it ended:
 *  undefined when whole, else why not — trailing bytes that are no gzip member, or data cut short. */
async function* gunzip(source: AsyncIterable<Uint8Array>, done: (problem: string | undefined) => void) {
  const out: Uint8Array[] = [];
  const g = new Gunzip((data) => {
    if (data.length > 0) out.push(data);
  });
  let produced = 0;
  const drain = function* () {
    for (const piece of out) {
      produced += piece.length;
      yield piece;
    }
    out.length = 0;
  };
  try {
    for await (const chunk of source)
      for (const slice of slices(chunk)) {
        g.push(slice, false);
        yield* drain();
      }
    g.push(new Uint8Array(0), true);
    yield* drain();
    done(undefined);
  } catch (e) {
    yield* drain();
    const why = e instanceof Error ? e.message : String(e);
    done(
      produced > 0 && /invalid gzip data/i.test(why)
        ? 'bytes after the gzip data are not gzip; ignored, as gunzip does'
        : `the gzip stream ended early (${why}); the lines before that point are loaded`,
    );
  }
}

function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 8;
  } finally {
    closeSync(fd);
  }
}

/**
 * The CLI's input (issue 19, items 3 and 10): a file, `-` for stdin, or a pipe/FIFO; stdin and pipes are copied to
 * a temporary file (the parsers read their input more than once), a gzip file is undone through node:zlib into
 * one, each stopped past `maxBytes`. A string is the reason the input cannot be used.
 */
export async function openInput(
  arg: string,
  stdin: () => AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<OpenedInput | string> {
  let tmp: string | null = null;
  const temp = () => {
    tmp ??= mkdtempSync(join(tmpdir(), 'tierscope-input-'));
    return tmp;
  };
  const cleanup = () => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  const fail = (why: string) => {
    cleanup();
    return why;
  };
  const notes: string[] = [];
  let path = arg;
  let name = arg === '-' ? 'stdin' : basename(arg);
  let regular = false;
  if (arg !== '-') {
    if (!existsSync(arg)) return `no such file: ${arg}`;
    const st = statSync(arg);
    if (st.isDirectory()) return `${arg} is a directory: give one session file`;
    regular = st.isFile();
    if (!regular && !st.isFIFO() && !st.isCharacterDevice() && !st.isSocket())
      return `${arg} is not a file, a pipe or stdin`;
  }
  if (!regular) {
    path = join(temp(), 'input');
    const got = await spoolTo(arg === '-' ? stdin() : createReadStream(arg), path, maxBytes);
    if (got.over) return fail(`${name} ${overFileLimit(maxBytes, null)}`);
    if (got.error) notes.push(`reading ${name} failed after ${got.bytes} bytes (${got.error}); what arrived is loaded`);
  }
  if (statSync(path).size > 0 && isGzipFile(path)) {
    const out = join(temp(), 'gunzipped');
    let ended: string | undefined;
    const got = await spoolTo(
      gunzip(createReadStream(path), (why) => {
        ended = why;
      }),
      out,
      maxBytes,
    );
    if (got.over) return fail(`${name} ${overFileLimit(maxBytes, null, true)}`);
    if (got.error) notes.push(`the gzip stream ended early (${got.error}); the lines before that point are loaded`);
    else if (ended) notes.push(ended);
    path = out;
    name = name.replace(GZ_NAME, '');
    regular = false;
  }
  const main = { ...fileFromPath(path), name };
  return { main, companions: regular ? companionFiles(path) : [], notes, cleanup };
}
