// Compiles a bench phase the way the app ships it (one bundle, no tsx runtime): tsx keeps function names
// with a helper call around every closure it creates, which costs the re-run phase 10–20% that the
// browser's production worker never pays. Falls back to tsx when esbuild (installed with tsx and vite) is
// not importable. Returns the command to run the phase with.
import { mkdirSync } from 'node:fs';

const OUT = 'bench/out/build';

export async function compiled(entry: string): Promise<{ cmd: string; args: string[]; how: string }> {
  try {
    const esbuild = await import('esbuild');
    mkdirSync(OUT, { recursive: true });
    const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '.mjs');
    const common = {
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    } as const;
    await esbuild.build({ ...common, entryPoints: [entry], outfile: `${OUT}/${name}` });
    // The counting pool's worker entry, next to the phase (node-pool.ts loads it relative to itself).
    await esbuild.build({
      ...common,
      entryPoints: ['bench/count-worker-node.ts'],
      outfile: `${OUT}/count-worker-node.mjs`,
    });
    return { cmd: 'node', args: [`${OUT}/${name}`], how: 'esbuild bundle (as shipped)' };
  } catch {
    return { cmd: 'npx', args: ['tsx', entry], how: 'tsx' };
  }
}
