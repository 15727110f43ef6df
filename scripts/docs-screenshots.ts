// Screenshots of the three kinds of session people bring (a Claude Code 2.0 session with the agent's own
// compaction, a Claude Code 2.1 session with sub-agents, a Codex rollout), in light and dark, at the sizes
// people use: what the README shows (`docs/`) and what a reviewer looks at. Builds the app into a temp dir,
// serves it, drives Chromium with a fresh profile per shot. Usage:
//   npx tsx scripts/docs-screenshots.ts <out-dir> [--sizes 1600x1000,1280x800] [--schemes light,dark] [--dist dir]
//     [--pngquant]   (shrinks each PNG ~3× with Debian's pngquant, as the ones under docs/ are)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { builtApp, ROOT } from '../test/e2e/harness.ts';
import { WILD_DIR as WILD } from '../test/helpers/fixture-inputs.ts';

const CC20 = join(WILD, 'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS');
const CC21 = join(WILD, 'claude-code/projects/ccl--experiments-worktrees');
const SESSIONS: { id: string; files: string[] }[] = [
  { id: 'claude-code-2.0-compactions', files: [join(CC20, '24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl')] },
  {
    id: 'claude-code-2.1-subagents',
    files: [
      join(CC21, 'ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'),
      ...readdirSync(join(CC21, 'ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents')).map((f) =>
        join(CC21, 'ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents', f),
      ),
    ],
  },
  {
    id: 'codex-rollout',
    files: [join(WILD, 'codex/parkinglot-rollout-2025-12-06T15-11-37-019af581-86ce-7d23-b9c6-0f99353d36af.jsonl')],
  },
];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out || out.startsWith('--')) throw new Error('usage: docs-screenshots.ts <out-dir> [--sizes WxH,…]');
  mkdirSync(out, { recursive: true });
  const sizes = arg('--sizes', '1280x800,1600x1000,1920x1080')
    .split(',')
    .map((s) => s.split('x').map(Number) as [number, number]);
  const schemes = arg('--schemes', 'light,dark').split(',') as ('light' | 'dark')[];
  const dist = arg('--dist', '') || (await builtApp());
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: dist },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const addr = server.httpServer.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 4173}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const scheme of schemes)
      for (const [width, height] of sizes) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto(url);
        await page.getByTestId('transcript-row').first().waitFor({ timeout: 120_000 });
        // The start-up sample's first run, so the loads below wait for their own.
        await page.waitForFunction(
          () => document.querySelector('[data-testid="summary-bar"]')?.getAttribute('data-run-status') === 'ready',
          undefined,
          { timeout: 120_000 },
        );
        for (const s of SESSIONS) {
          const before = Number((await page.getByTestId('summary-bar').getAttribute('data-run-id')) ?? 0);
          await page.getByTestId('file-input').setInputFiles(s.files);
          await page.waitForFunction(
            (a) => {
              const el = document.querySelector('[data-testid="summary-bar"]');
              return el?.getAttribute('data-run-status') === 'ready' && Number(el.getAttribute('data-run-id')) > a;
            },
            before,
            { timeout: 180_000 },
          );
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const file = join(out, `${s.id}-${width}x${height}-${scheme}.png`);
          await page.screenshot({ path: file });
          if (process.argv.includes('--pngquant'))
            execFileSync('pngquant', ['--quality', '80-95', '--speed', '1', '--force', '--ext', '.png', file]);
          console.log(file);
        }
        if (errors.length > 0) console.log(`console errors (${scheme} ${width}x${height}):\n  ${errors.join('\n  ')}`);
        await context.close();
      }
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
  }
}

await main();
