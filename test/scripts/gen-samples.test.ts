// The bundled samples are generated, deterministic and current: regenerating them elsewhere gives the
// committed bytes (run `npm run samples` after changing the generator or the bundle format).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

it('regenerates public/samples byte for byte', () => {
  const out = mkdtempSync(join(tmpdir(), 'tierscope-samples-'));
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/gen-samples.ts'], {
      cwd: ROOT,
      env: { ...process.env, SAMPLES_OUT: out },
      stdio: 'pipe',
    });
    const committed = join(ROOT, 'public/samples');
    const files = readdirSync(out).sort();
    expect(files).toEqual(readdirSync(committed).sort());
    for (const f of files) expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as { samples: { file: string }[] };
    for (const e of manifest.samples) expect(readFileSync(join(out, e.file)).length).toBeLessThan(1_000_000);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 60_000);
