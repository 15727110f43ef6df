// The folders are the architecture (STYLE.md). Like Perfetto's check_imports, the rules are an explicit
// allowlist: each folder names the folders it may import, and nothing else passes; there are no per-file
// exceptions. Every reference counts (type-only, side-effect, dynamic, `new URL(…, import.meta.url)`), in src/,
// worker/, bench/ and scripts/. The UI (state/, views/) reaches the core only through src/protocol/, checked
// transitively; inside pipeline/ the working history never imports a stage; and no import cycle exists.
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import {
  cycles,
  type Edge,
  edgesOf,
  reach,
  readSources,
  type Sources,
  uiCoreLines,
  uiSurfaceBreaches,
  violations,
} from './imports.ts';

const CORE = ['lib', 'model', 'formats', 'tokens', 'catalog', 'pairing', 'pipeline', 'replay', 'analyses'];

/** What each folder may import besides itself. `worker/engine.worker.ts` is the worker entry the page starts. */
const MAY_IMPORT: Record<string, string[]> = {
  lib: [],
  model: ['lib'],
  formats: ['lib', 'model'],
  tokens: ['lib', 'model'],
  catalog: ['lib', 'model'],
  pairing: ['lib', 'model'],
  pipeline: ['lib', 'model', 'tokens', 'catalog'],
  replay: ['lib', 'model', 'tokens', 'catalog', 'pairing', 'pipeline'],
  analyses: ['lib', 'model', 'tokens', 'catalog', 'pairing', 'pipeline', 'replay'],
  share: [...CORE, 'formats'],
  projections: [...CORE, 'sessions'],
  sessions: [...CORE, 'formats'],
  cli: [...CORE, 'share', 'sessions'],
  /** The protocol names core types and re-exports light values; what the UI may load through it is checked below. */
  protocol: [...CORE, 'share', 'projections', 'sessions'],
  worker: [...CORE, 'share', 'projections', 'sessions', 'protocol'],
  state: ['protocol', 'worker/engine.worker.ts'],
  views: ['state', 'protocol'],
  app: ['state', 'views'],
  bench: [...CORE, 'share', 'projections', 'sessions', 'cli', 'protocol', 'worker'],
  scripts: [...CORE, 'share', 'projections', 'sessions', 'cli', 'protocol', 'worker'],
};

const sources = readSources(REPO_ROOT, ['src', 'worker', 'bench', 'scripts']);
const edges = edgesOf(sources);

/** A tiny in-memory repository for the checker's own tests. */
const planted = (files: Record<string, string>): Edge[] => edgesOf(new Map(Object.entries(files)) as Sources);

describe('layering', () => {
  it('finds the source files and every folder is in the allowlist', () => {
    expect(sources.size).toBeGreaterThan(100);
    expect([...sources.keys()].some((f) => f.startsWith('bench/'))).toBe(true);
    expect([...sources.keys()].some((f) => f.startsWith('scripts/'))).toBe(true);
    const unknown = [...new Set([...sources.keys()].map((f) => f.split('/')[0]))].filter(
      (root) => !['src', 'worker', 'bench', 'scripts'].includes(root),
    );
    expect(unknown).toEqual([]);
    const layers = new Set(
      [...sources.keys()].map((f) => (f.startsWith('src/') && f !== 'src/main.tsx' ? f.split('/')[1] : null)),
    );
    layers.delete(null);
    expect([...layers].filter((l) => l && !l.includes('.') && MAY_IMPORT[l] === undefined)).toEqual([]);
  });

  it('every import is one its folder may make', () => {
    expect(violations(edges, MAY_IMPORT)).toEqual([]);
  });

  it('the check fails on the UI importing the engine implementation, or the model importing up', () => {
    const e = (from: string, to: string): Edge => ({ from, to, value: true, how: 'import' });
    expect(violations([e('src/state/store.ts', 'worker/create-engine.ts')], MAY_IMPORT)).toEqual([
      'src/state/store.ts → worker/create-engine.ts',
    ]);
    expect(violations([e('src/views/app/App.tsx', 'src/pipeline/config.ts')], MAY_IMPORT)).toHaveLength(1);
    expect(violations([e('src/model/transcript.ts', 'src/formats/index.ts')], MAY_IMPORT)).toHaveLength(1);
    expect(violations([e('src/state/store.ts', 'src/protocol/index.ts')], MAY_IMPORT)).toEqual([]);
  });

  it('the check reads every kind of reference: side-effect imports, new URL, type-only, multi-line, bench/ and scripts/', () => {
    const found = planted({
      'src/model/a.ts': "import '../views/app/order-files.ts';\nexport const a = 1;\n",
      'src/model/b.ts':
        "export const w = () => new Worker(new URL('../views/app/w.ts', import.meta.url), { type: 'module' });\n",
      'src/model/c.ts': "import type {\n  Row,\n  TimelinePoint,\n} from '../projections/rows.ts';\n",
      'src/model/d.ts': "export async function d() {\n  return import('../formats/index.ts');\n}\n",
      'scripts/gen.ts': "import type { SampleEntry } from '../src/views/app/use-startup.ts';\n",
      'bench/run.ts': "import { useStore } from '../src/state/store.ts';\n",
      'src/model/fine.ts': "import { x } from '../lib/x.ts';\nimport 'zustand';\n",
    });
    expect(violations(found, MAY_IMPORT).sort()).toEqual([
      'bench/run.ts → src/state/store.ts',
      'scripts/gen.ts → src/views/app/use-startup.ts',
      'src/model/a.ts → src/views/app/order-files.ts (side-effect)',
      'src/model/b.ts → src/views/app/w.ts (url)',
      'src/model/c.ts → src/projections/rows.ts',
      'src/model/d.ts → src/formats/index.ts (dynamic)',
    ]);
    // `import type` is erased; `import { type x }` still loads the module (verbatimModuleSyntax keeps it).
    const kinds = planted({
      'src/views/a.ts':
        "import type { A } from './t.ts';\nimport { type B } from './u.ts';\nexport type { C } from './v.ts';\nexport * from './w.ts';\n",
    });
    expect(kinds.map((e) => `${e.to}:${e.value}`)).toEqual([
      'src/views/t.ts:false',
      'src/views/u.ts:true',
      'src/views/v.ts:false',
      'src/views/w.ts:true',
    ]);
  });

  it('no import cycle, type-only imports included', () => {
    expect(cycles(edges)).toEqual([]);
    // The checker itself: a two-file loop and a three-file loop are found.
    const e = (from: string, to: string) => ({ from, to });
    expect(cycles([e('a', 'b'), e('b', 'a'), e('c', 'd'), e('d', 'e'), e('e', 'c'), e('e', 'f')])).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('inside pipeline/: the working history and the stage contract never reach a stage, even transitively', () => {
    const reached = reach(edges, ['src/pipeline/working.ts', 'src/pipeline/stage.ts'], () => true);
    expect([...reached].filter((f) => f.startsWith('src/pipeline/stages/'))).toEqual([]);
  });

  it('the pairing validator depends only on lib and model', () => {
    const out = edges.filter(
      ({ from, to }) => from.startsWith('src/pairing/') && !/^src\/(lib|model|pairing)\//.test(to),
    );
    expect(out).toEqual([]);
  });
});

describe('the UI’s one door (src/protocol/)', () => {
  const uiFiles = [...sources.keys()].filter((f) => /^src\/(state|views)\/|^src\/main\.tsx$/.test(f));
  const loaded = reach(edges, uiFiles, (e) => e.value && e.how !== 'url');

  it('state/ and views/ load from the core only what src/protocol/ re-exports, and that pulls nothing heavy in', () => {
    expect(uiFiles.length).toBeGreaterThan(50);
    expect(uiSurfaceBreaches(edges)).toEqual([]);
  });

  it('the page bundle holds no parser registry, tokenizer, validator, share codec or price catalog', () => {
    const heavy = [...loaded].filter((f) =>
      /^src\/(formats\/index|tokens\/(tokenizer|bpe)|pairing\/validate|pairing\/providers\/|share\/(codec|payload)|catalog\/catalog|pipeline\/stages\/|replay\/|worker\/)/.test(
        f,
      ),
    );
    expect(heavy).toEqual([]);
    const catalog = [...loaded].filter((f) => sources.get(f)?.includes("'@pydantic/genai-prices'"));
    expect(catalog).toEqual([]);
    // Before src/protocol/ the page loaded 44 core files (5,099 lines) through worker/api.ts.
    expect(uiCoreLines(edges, sources).lines).toBeLessThan(2_600);
  });

  it('the check fails on a heavy module reached through the protocol, or the UI going around it', () => {
    const found = planted({
      'src/views/app/Panel.tsx': "import { PROVIDERS } from '../../protocol/index.ts';\n",
      'src/protocol/index.ts': "export { PROVIDERS } from '../pairing/validate.ts';\n",
      'src/pairing/validate.ts': "import { check } from './providers/anthropic.ts';\nexport const PROVIDERS = [];\n",
      'src/pairing/providers/anthropic.ts': 'export const check = 1;\n',
      'src/state/store.ts':
        "import { shareValue } from '../share/codec.ts';\nimport type { Row } from '../projections/rows.ts';\n",
      'src/share/codec.ts': 'export const shareValue = 1;\n',
    });
    expect(uiSurfaceBreaches(found).sort()).toEqual([
      'src/pairing/providers/anthropic.ts (via src/pairing/validate.ts): loaded by the UI but not named by src/protocol/',
      'src/share/codec.ts (via src/state/store.ts): loaded by the UI but not named by src/protocol/',
      'src/state/store.ts → src/projections/rows.ts: the UI imports the core',
      'src/state/store.ts → src/share/codec.ts: the UI imports the core',
    ]);
    // The worker it starts with `new URL` is a bundle of its own, not loaded into the page.
    const worker = planted({
      'src/state/engine-client.ts': "new Worker(new URL('../../worker/engine.worker.ts', import.meta.url));\n",
      'worker/engine.worker.ts': "import { createEngine } from './create-engine.ts';\n",
    });
    expect(uiSurfaceBreaches(worker)).toEqual([]);
  });
});
