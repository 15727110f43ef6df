#!/usr/bin/env node
// Entry point for `tierscope` / `npm run tierscope`: loads the TypeScript CLI through tsx. A reader that
// stops early (`| head`) closes the pipe: the write fails with EPIPE, which ends the run quietly.
import { register } from 'tsx/esm/api';

for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });

register();
const { runCli } = await import('../src/cli/main.ts');
const code = await runCli(process.argv.slice(2), {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
});
process.exitCode = code;
