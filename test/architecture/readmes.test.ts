// Folder READMEs match the files that exist (the house rule "folder READMEs match the files that exist"): every
// source file directly in a folder with a README, and every subfolder, is named in it; every `file.ts` a README
// names exists somewhere under its folder. A file added or moved without its README line fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const ROOTS = ['src', 'worker', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs)$/;
const SKIP = new Set(['node_modules', 'out', 'dist']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const readmes = ROOTS.flatMap((r) => walk(join(REPO_ROOT, r))).filter((p) => p.endsWith('README.md'));

describe('folder READMEs', () => {
  it('there are READMEs to check', () => {
    expect(readmes.length).toBeGreaterThan(10);
  });
  for (const readme of readmes) {
    const dir = readme.slice(0, -'/README.md'.length);
    it(relative(REPO_ROOT, readme), () => {
      const text = readFileSync(readme, 'utf8');
      const entries = readdirSync(dir)
        .filter((n) => !SKIP.has(n))
        .map((n) => (statSync(join(dir, n)).isDirectory() ? `${n}/` : n))
        .filter((n) => n.endsWith('/') || SOURCE.test(n));
      expect(
        entries.filter((n) => !text.includes(n)),
        'files and folders the README does not name',
      ).toEqual([]);
      const under = walk(dir).map((p) => p.split('/').pop());
      const named = [...text.matchAll(/`([\w.-]+\.(?:ts|tsx|mjs))`/g)].map((m) => m[1]);
      expect(
        named.filter((n) => !under.includes(n)),
        'files the README names that do not exist',
      ).toEqual([]);
    });
  }
});
