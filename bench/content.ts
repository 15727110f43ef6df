// Seeded content for generated logs: code, JSON, English prose, Japanese (CJK), long unspaced runs
// (base64, separators, minified code). Deterministic for a seed so benchmarks and tests are repeatable.

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // xorshift32
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 0x100000000;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const WORDS =
  'the session token cache request handler returns error value when user file path config update test build module function pipeline context window result tool call message agent model compaction summary because however therefore first then after before each every while state render server client parse stream buffer index offset retry timeout deploy branch commit review'.split(
    ' ',
  );
const IDENTS = [
  'handleRequest',
  'sessionStore',
  'parseConfig',
  'tokenCount',
  'retryAfter',
  'cacheKey',
  'userID',
  'ctx',
  'err',
  'buf',
  'resp',
  'opts',
];
const JA =
  'キャッシュのヒット率が下がった理由を調べるために、各リクエストのトークン数と圧縮の段階を確認します。古いツール結果はメタデータに置き換えられ、編集中のファイルは先頭と末尾だけが残ります。エージェントは同じファイルをもう一度読み直しました。'.split(
    '',
  );
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function prose(r: Rng, chars: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    let s = '';
    const len = r.int(6, 18);
    for (let i = 0; i < len; i++) s += (i === 0 ? '' : ' ') + r.pick(WORDS);
    s = `${s[0].toUpperCase()}${s.slice(1)}${r.chance(0.1) ? `: \`${r.pick(IDENTS)}\`` : ''}.`;
    out.push(s);
    n += s.length + 1;
    if (r.chance(0.15)) {
      out.push('\n\n');
      n += 2;
    }
  }
  return out.join(' ').slice(0, chars);
}

export function japanese(r: Rng, chars: number): string {
  let s = '';
  while (s.length < chars)
    s +=
      JA.slice(r.int(0, JA.length - 20))
        .join('')
        .slice(0, r.int(20, 60)) + (r.chance(0.2) ? '\n' : '');
  return s.slice(0, chars);
}

export function code(r: Rng, chars: number, numbered = true): string {
  const lines: string[] = [];
  let n = 0;
  let indent = 0;
  let ln = 1;
  while (n < chars) {
    const kind = r.int(0, 6);
    let l: string;
    const id = r.pick(IDENTS);
    if (kind === 0) {
      l = `func ${id}(ctx context.Context, ${r.pick(IDENTS)} string) (*Result, error) {`;
      indent = 1;
    } else if (kind === 1)
      l = `if err != nil {\n${'\t'.repeat(indent + 1)}return nil, fmt.Errorf("${r.pick(WORDS)} ${r.pick(WORDS)}: %w", err)\n${'\t'.repeat(indent)}}`;
    else if (kind === 2) l = `${id} := ${r.pick(IDENTS)}.${r.pick(IDENTS)}(${r.int(0, 999)}, "${r.pick(WORDS)}")`;
    else if (kind === 3) l = `// ${prose(r, r.int(20, 70))}`;
    else if (kind === 4) {
      l = '}';
      indent = Math.max(0, indent - 1);
    } else if (kind === 5) l = `for i := 0; i < len(${id}); i++ {`;
    else l = `return &Result{Value: ${id}, Count: ${r.int(0, 9999)}}, nil`;
    const text = `${'\t'.repeat(indent)}${l}`;
    lines.push(numbered ? `${String(ln).padStart(6)}\t${text}` : text);
    ln++;
    n += text.length + 8;
  }
  return lines.join('\n').slice(0, chars);
}

export function jsonBlob(r: Rng, chars: number): string {
  const items: unknown[] = [];
  let n = 0;
  while (n < chars) {
    const o = {
      id: `item_${r.int(1000, 99999)}`,
      name: r.pick(WORDS),
      path: `src/${r.pick(WORDS)}/${r.pick(IDENTS)}.ts`,
      count: r.int(0, 5000),
      ok: r.chance(0.8),
      tags: [r.pick(WORDS), r.pick(WORDS)],
    };
    items.push(o);
    n += 120;
  }
  return JSON.stringify({ results: items }, null, r.chance(0.5) ? 2 : 0).slice(0, chars);
}

/** Long runs without spaces: base64, separators, minified code (the pathological case for BPE). */
export function unspaced(r: Rng, chars: number): string {
  const k = r.int(0, 2);
  if (k === 0) {
    let s = '';
    for (let i = 0; i < chars; i++) s += B64[r.int(0, 63)];
    return s;
  }
  if (k === 1)
    return `${'='.repeat(Math.min(chars, r.int(200, 4000)))}\n${prose(r, Math.max(0, chars - 4001))}`.slice(0, chars);
  let s = '';
  while (s.length < chars)
    s += `function ${r.pick(IDENTS)}(a,b){return a.${r.pick(IDENTS)}(b)||${r.int(0, 99)}};var ${r.pick(IDENTS)}=${r.int(0, 9)};`;
  return s.slice(0, chars);
}

export type ContentKind = 'code' | 'json' | 'prose' | 'cjk' | 'unspaced' | 'log';

export function content(r: Rng, kind: ContentKind, chars: number): string {
  switch (kind) {
    case 'code':
      return code(r, chars);
    case 'json':
      return jsonBlob(r, chars);
    case 'prose':
      return prose(r, chars);
    case 'cjk':
      return japanese(r, chars);
    case 'unspaced':
      return unspaced(r, chars);
    case 'log': {
      const lines: string[] = [];
      let n = 0;
      while (n < chars) {
        const l = `${r.chance(0.1) ? 'FAIL' : 'ok  '}\tgithub.com/acme/${r.pick(WORDS)}/${r.pick(WORDS)}\t${(r.next() * 3).toFixed(3)}s`;
        lines.push(l);
        n += l.length + 1;
      }
      return lines.join('\n').slice(0, chars);
    }
  }
}
