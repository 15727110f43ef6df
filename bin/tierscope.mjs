#!/usr/bin/env node
// Entry point for `tierscope` / `npm run tierscope`: loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const code = await runCli(process.argv.slice(2), {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
});
process.exitCode = code;
