// Every `SPEC §N` / `SPEC §N.M` the code, its READMEs and its tests cite resolves inside the repository: `§N` is a
// section `## N.` of docs/spec.md, `§N.M` its subsection `### N.M` or, in a section that numbers its steps (§4's
// stages), its item `M.`. A reference to a section that does not exist fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { readSources } from './imports.ts';

const SPEC = readFileSync(join(REPO_ROOT, 'docs/spec.md'), 'utf8');

/** The sections of the spec and, per section, the subsections and numbered items it has. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  let section: string | null = null;
  for (const line of text.split('\n')) {
    const h2 = /^## (\d+)\./.exec(line);
    if (h2) {
      section = h2[1];
      out.add(section);
      continue;
    }
    const h3 = /^### (\d+\.\d+)\b/.exec(line);
    if (h3) out.add(h3[1]);
    const item = /^(\d+)\. /.exec(line);
    if (item && section) out.add(`${section}.${item[1]}`);
  }
  return out;
}

function citations(texts: Iterable<[string, string]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, text] of texts)
    for (const m of text.matchAll(/SPEC §(\d+(?:\.\d+)?)/g)) out.set(m[1], [...(out.get(m[1]) ?? []), path]);
  return out;
}

describe('SPEC references', () => {
  const known = anchors(SPEC);
  const code = readSources(REPO_ROOT, ['src', 'worker', 'bench', 'scripts', 'test'], (name) =>
    /\.(ts|tsx|mjs|md)$/.test(name),
  );
  code.set('README.md', readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));

  it('docs/spec.md has the sections the code cites, and every citation resolves', () => {
    expect(known.has('4.3') && known.has('5.2') && known.has('10')).toBe(true);
    const cited = citations(code);
    expect(cited.size).toBeGreaterThan(15);
    const missing = [...cited].filter(([ref]) => !known.has(ref)).map(([ref, where]) => `§${ref}: ${where[0]}`);
    expect(missing).toEqual([]);
  });

  it('the check fails on a section the spec lacks', () => {
    // (Spelt in parts so this file's own text cites nothing.)
    const cite = (ref: string) => `SPEC ${'§'}${ref}`;
    const cited = citations([['src/x.ts', `// see ${cite('4.9')} and ${cite('12')}`]]);
    expect([...cited.keys()].filter((ref) => !known.has(ref))).toEqual(['4.9', '12']);
  });
});
