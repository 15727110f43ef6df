// A tiny transcript DSL so every rule has a readable test (STYLE.md testing habit 2).
// One line per block, `<role> <block>`; consecutive lines of the same role form one message,
// a line `-` starts a new message. Roles: S system, U user, A assistant.
//   U Fix the bug                    text block
//   A tu(X) Read a.ts                tool_use X named Read (input {file_path:"a.ts"}; JSON args allowed)
//   U tr(X) 12000 chars              tool_result for X with 12,000 runes of filler ("cjk" for CJK runes)
//   U tr!(X) "Error: boom"           error result with literal text
//   A think pondering                thinking block
//   U summary Previous context...    a message the agent itself compacted (compaction: 'summary')
// Message-level options go in braces after the role: `A{t=600,model=m2,usage=1000/500/200}` sets the
// request's time (s), model and observed usage input/cacheRead/cacheWrite. Each assistant message is
// one request whose input is everything before it.
import type { Block, Message, Request, Role, Thread, Transcript } from '../../src/model/transcript.ts';

const ROLE: Record<string, Role> = { S: 'system', U: 'user', A: 'assistant' };

/** Deterministic filler of exactly `runes` code points: prose-like words, or CJK. */
export function filler(runes: number, kind: 'chars' | 'cjk' = 'chars', seed = 0): string {
  if (kind === 'cjk') {
    let s = '';
    for (let i = 0; i < runes; i++) s += String.fromCodePoint(0x4e00 + ((i * 7 + seed * 13) % 2000));
    return s;
  }
  const words = ['alpha', 'beta', 'gamma', 'delta', 'error', 'file', 'line', 'value', 'token', 'cache', 'tier'];
  let s = '';
  let i = seed;
  while (s.length < runes) {
    s += `${words[i % words.length]}${i % 7 === 0 ? '\n' : ' '}`;
    i++;
  }
  return s.slice(0, runes);
}

function toolInput(name: string, args: string): unknown {
  const a = args.trim();
  if (a.startsWith('{')) return JSON.parse(a);
  if (/^(Read|file_read|Write|Edit|file_write|file_edit)$/.test(name)) return { file_path: a };
  if (/^(Bash|bash|shell)$/.test(name)) return { command: a };
  if (/^(Grep|grep|Glob|glob)$/.test(name)) return { pattern: a };
  return a === '' ? {} : { input: a };
}

function resultContent(spec: string): string {
  const s = spec.trim();
  const sized = /^(\d+)\s+(chars|cjk)$/.exec(s);
  if (sized) return filler(Number(sized[1]), sized[2] as 'chars' | 'cjk', s.length);
  if (s.startsWith('"') && s.endsWith('"')) return JSON.parse(s);
  return s;
}

function parseBlock(body: string): { block: Block; summary?: boolean } {
  let m = /^tu\(([^)]*)\)\s+(\S+)\s*(.*)$/.exec(body);
  if (m) return { block: { type: 'tool_use', id: m[1], name: m[2], input: toolInput(m[2], m[3]) } };
  m = /^tr(!?)\(([^)]*)\)\s*(.*)$/.exec(body);
  if (m)
    return { block: { type: 'tool_result', toolUseId: m[2], content: resultContent(m[3]), isError: m[1] === '!' } };
  m = /^think\s+(.*)$/.exec(body);
  if (m) return { block: { type: 'thinking', thinking: m[1], signature: 'sig' } };
  m = /^summary\s+(.*)$/.exec(body);
  if (m) return { block: { type: 'text', text: m[1] }, summary: true };
  return { block: { type: 'text', text: body } };
}

type Opts = { t?: number; model?: string; usage?: [number, number, number] };

function parseOpts(s: string | undefined): Opts {
  const o: Opts = {};
  if (!s) return o;
  for (const kv of s.split(',')) {
    const [k, v] = kv.split('=').map((x) => x.trim());
    if (k === 't') o.t = Number(v);
    else if (k === 'model') o.model = v;
    else if (k === 'usage') {
      const [a, b, c] = v.split('/').map(Number);
      o.usage = [a, b, c];
    }
  }
  return o;
}

/** Build a main thread from DSL text. */
export function thread(src: string, id = 'main'): Thread {
  const messages: Message[] = [];
  const requests: Request[] = [];
  const opts: Opts[] = [];
  let cur: Message | undefined;
  let line = 0;
  for (const raw of src.split('\n')) {
    line++;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    if (text === '-') {
      cur = undefined;
      continue;
    }
    const m = /^([SUA])(?:\{([^}]*)\})?\s*(.*)$/.exec(text);
    if (!m) throw new Error(`dsl line ${line}: ${text}`);
    const role = ROLE[m[1]];
    const o = parseOpts(m[2]);
    if (!cur || cur.role !== role || m[2] !== undefined) {
      cur = { index: messages.length, role, blocks: [], source: { line } };
      messages.push(cur);
      opts[cur.index] = o;
    }
    const { block, summary } = parseBlock(m[3]);
    cur.blocks.push(block);
    if (summary) cur.compaction = 'summary';
  }
  for (const msg of messages) {
    if (msg.role !== 'assistant') continue;
    const o = opts[msg.index] ?? {};
    const r: Request = { index: requests.length, thread: id, inputEnd: msg.index, responseEnd: msg.index + 1 };
    if (o.t !== undefined) {
      r.time = o.t * 1000;
      msg.time = o.t * 1000;
    }
    if (o.model) r.model = msg.model = o.model;
    if (o.usage) r.observed = { input: o.usage[0], cacheRead: o.usage[1], cacheWrite: o.usage[2], output: 10 };
    requests.push(r);
  }
  return { id, kind: 'main', messages, requests, prefix: {} };
}

/** Build a transcript (format claude-code) from DSL text for one main thread. */
export function transcript(src: string): Transcript {
  return { format: 'claude-code', meta: {}, threads: [thread(src)], parseIssues: [] };
}

/** Messages only (for validators that take a message list). */
export function messages(src: string): Message[] {
  return thread(src).messages;
}
