// The README's start command, exactly as written: `npm start` (the Vite dev server, not the preview every other e2e
// uses) opens in Chromium on the bundled sample with no console error and no Content-Security-Policy violation —
// the dev page runs under the production policy (scripts/dev-preamble.ts serves React's preamble from this origin).
// Its file input accepts every kind of log the README's first screen names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DOCUMENT_POLICY } from '../../src/lib/csp.ts';
import { openBrowser, ROOT, screenshot } from './harness.ts';
import { type Spawned, spawnServer } from './spawned.ts';

let server: Spawned | undefined;

afterAll(async () => {
  await server?.stop();
});

it('`npm start` renders the sample under the production policy, without console errors; Open… takes what the README says', async () => {
  server = await spawnServer('npm', ['start'], { cwd: ROOT });
  // The README names 5173; Vite moves to the next free port when another run holds it, and prints that one.
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  const s = await openBrowser(server.url);
  try {
    await s.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const res = await s.page.goto(server.url);
    expect(res?.headers()['content-security-policy']).toBe(DOCUMENT_POLICY);
    await s.page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="load-status"]');
        return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('tierscope');
      },
      undefined,
      { timeout: 120_000 },
    );
    await s.page.getByTestId('transcript-row').first().waitFor({ timeout: 120_000 });
    await s.page.getByTestId('stat-hit-rate-simulated').waitFor({ timeout: 120_000 });
    await screenshot(s.page, 'npm-start');
    expect(await s.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    // The page asked for no inline script: the preamble came from this origin.
    const inline = await s.page.evaluate(() => [...document.scripts].filter((x) => !x.src && x.text.trim()).length);
    expect(inline).toBe(0);
    // Open… accepts every kind of log the README's first screen says a drop opens.
    const accept = ((await s.page.getByTestId('file-input').getAttribute('accept')) ?? '').split(',');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const said = readme.slice(readme.indexOf('## See your own sessions'), readme.indexOf('## Tests'));
    const kinds = [...said.matchAll(/`(\.[a-z.]+)`/g)].map((m) => m[1]);
    expect(kinds).toEqual(expect.arrayContaining(['.jsonl', '.json', '.eval', '.traj', '.gz']));
    expect(kinds.filter((k) => !accept.some((a) => a.startsWith('.') && k.endsWith(a)))).toEqual([]);
  } finally {
    await s.close();
  }
});
