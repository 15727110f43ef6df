// The import graph the layers test checks, read from source text (so a test can plant files in memory): every
// relative reference a file makes — static imports and re-exports (type-only included), side-effect imports,
// dynamic `import()`, and `new URL('…', import.meta.url)` (a worker or asset the bundler follows) — each marked
// as loading code at run time (`value`) or not (`import type`, `export type`: erased).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

/** Source files by repo-relative path ('/'-separated). */
export type Sources = Map<string, string>;

export type Edge = { from: string; to: string; value: boolean; how: 'import' | 'side-effect' | 'dynamic' | 'url' };

/** Folders of generated files, never read as sources (git ignores them). */
const GENERATED = new Set(['node_modules', 'out', 'dist']);

/** Every .ts/.tsx/.mjs/.js file (or every file whose name `pick` accepts) under `dirs` of `root`, read. */
export function readSources(
  root: string,
  dirs: readonly string[],
  pick = (name: string) => /\.(ts|tsx|mjs|js)$/.test(name) && !name.endsWith('.d.ts'),
): Sources {
  const out: Sources = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      // What `npm run bench` generates (bench/out: bundles, logs, unpacked fonts with links into /etc) is no source.
      if (GENERATED.has(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (pick(name)) out.set(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

const FORMS: { how: Edge['how']; re: RegExp }[] = [
  // `import x from`, `import { a, type b } from`, `import type … from`, `export … from`, across lines.
  { how: 'import', re: /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g },
  { how: 'side-effect', re: /(?:^|[;\n}])\s*import\s*()()()['"]([^'"]+)['"]/g },
  { how: 'dynamic', re: /\bimport\(\s*()()()['"]([^'"]+)['"]\s*[,)]/g },
  { how: 'url', re: /\bnew\s+URL\(\s*()()()['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g },
];

/** The relative references of one file, resolved to repo-relative paths (a `?query` dropped). */
function importsOf(from: string, text: string): Edge[] {
  const out: Edge[] = [];
  for (const { how, re } of FORMS) {
    for (const m of text.matchAll(re)) {
      const spec = m[4];
      if (!spec.startsWith('.')) continue;
      const to = posix.normalize(posix.join(posix.dirname(from), spec.replace(/\?.*$/, '')));
      // `import type`, `export type`, and `export type * from` are erased; `import { type a }` still loads the module.
      const value = !(how === 'import' && (m[2] !== undefined || /^type\b/.test(m[3] ?? '')));
      out.push({ from, to, value, how });
    }
  }
  return out;
}

export function edgesOf(sources: Sources): Edge[] {
  return [...sources].flatMap(([path, text]) => importsOf(path, text));
}

/** The folder a repo-relative path belongs to (`src/main.tsx` is the app entry). */
function layerOf(rel: string): string | undefined {
  if (rel.startsWith('worker/')) return 'worker';
  if (rel.startsWith('bench/')) return 'bench';
  if (rel.startsWith('scripts/')) return 'scripts';
  if (rel === 'src/main.tsx') return 'app';
  const m = /^src\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

/** The references (from → to) that break the allowlist: each folder names the folders (or files) it may reach. */
export function violations(edges: readonly Edge[], mayImport: Record<string, readonly string[]>): string[] {
  const bad: string[] = [];
  for (const { from, to, how } of edges) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (!a || !b || a === b) continue;
    const allowed = mayImport[a] ?? [];
    if (!allowed.includes(b) && !allowed.includes(to))
      bad.push(`${from} → ${to}${how === 'import' ? '' : ` (${how})`}`);
  }
  return bad;
}

/** Every cycle's files (Tarjan's strongly connected components of more than one file, or a self-import). */
export function cycles(edges: readonly Pick<Edge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** Files reached from `start` following the edges `follow` keeps. */
export function reach(edges: readonly Edge[], start: readonly string[], follow: (e: Edge) => boolean): Set<string> {
  const next = new Map<string, Edge[]>();
  for (const e of edges) if (follow(e)) next.set(e.from, [...(next.get(e.from) ?? []), e]);
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const f = queue.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of next.get(f) ?? []) queue.push(e.to);
  }
  return seen;
}

const UI = /^src\/(state|views)\/|^src\/main\.tsx$/;
const PROTOCOL = /^src\/protocol\//;

/**
 * The UI's door, checked transitively (Perfetto's check_imports): code the page loads from the core — following
 * value imports from state/, views/ and main.tsx, but not `new URL` (the worker is a bundle of its own) — enters
 * only through src/protocol/, and what the protocol exposes is light: each core module it loads, directly or
 * through another, is one it re-exports itself (a "surface" module) or lib/, and a surface module loads nothing
 * but other surface modules and lib/. Returns each breach as a sentence.
 */
export function uiSurfaceBreaches(edges: readonly Edge[]): string[] {
  const bad: string[] = [];
  const isCore = (f: string) => !UI.test(f) && !PROTOCOL.test(f);
  const surface = new Set(edges.filter((e) => PROTOCOL.test(e.from) && e.value && isCore(e.to)).map((e) => e.to));
  for (const e of edges)
    if (UI.test(e.from) && e.how !== 'url' && isCore(e.to)) bad.push(`${e.from} → ${e.to}: the UI imports the core`);
  const from = [...new Set(edges.map((e) => e.from))].filter((f) => UI.test(f));
  const reached = reach(edges, from, (e) => e.value && e.how !== 'url');
  for (const f of reached) {
    if (!isCore(f) || f.startsWith('src/lib/') || surface.has(f)) continue;
    const via = edges.filter((e) => e.to === f && e.value && reached.has(e.from)).map((e) => e.from);
    bad.push(`${f} (via ${via.join(', ')}): loaded by the UI but not named by src/protocol/`);
  }
  return bad;
}

/** The core files (not UI, not protocol) the page loads, with their line counts. */
export function uiCoreLines(edges: readonly Edge[], sources: Sources): { files: number; lines: number } {
  const from = [...sources.keys()].filter((f) => UI.test(f));
  const reached = [...reach(edges, from, (e) => e.value && e.how !== 'url')].filter((f) => !UI.test(f));
  const lines = reached.reduce((n, f) => n + (sources.get(f)?.split('\n').length ?? 0) - 1, 0);
  return { files: reached.length, lines };
}
