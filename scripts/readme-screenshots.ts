// The README's two screenshots (docs/readme-sessions.png, docs/readme-session.png): the app built as users get it,
// served the way `npx tierscope` serves a sessions folder (here ../shared/fixtures/wild/claude-code/projects, real
// sessions laid out as ~/.claude/projects), in headless Chromium at 1440×900 — the sessions table, then one session
// opened from it with its sub-agents. Run `npx tsx scripts/readme-screenshots.ts` after a UI change and look at them.
import { join } from 'node:path';
import { servedFolders, startServe } from '../src/cli/serve.ts';
import { builtApp, openBrowser, ROOT, stopServer } from '../test/e2e/harness.ts';
import { rowsShown, waitForRun } from '../test/e2e/ui.ts';
import { WILD_DIR } from '../test/helpers/fixture-inputs.ts';

const SESSION = 'ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl';

// Build React's production bundle, as users get it (tsx leaves NODE_ENV unset; the harness sets it for the build).
const serving = await startServe(servedFolders([join(WILD_DIR, 'claude-code/projects')]), await builtApp(), 0);
const s = await openBrowser(serving.url);
try {
  const { page } = s;
  await page.goto(serving.url);
  await page.getByTestId('sessions-table').waitFor();
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(ROOT, 'docs/readme-sessions.png') });
  await page.locator(`[data-testid="session-row"][data-path="${SESSION}"]`).click();
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="load-status"]');
    return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('ef958aa1');
  });
  await waitForRun(page);
  await page.waitForFunction(() => !document.querySelector('[data-testid="load-progress"]'));
  await rowsShown(page);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(ROOT, 'docs/readme-session.png') });
  if (s.consoleErrors.length > 0) throw new Error(`console errors: ${s.consoleErrors.join('\n')}`);
} finally {
  await s.close();
  await serving.close();
  await stopServer();
}
