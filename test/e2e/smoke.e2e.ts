// The app opens on its bundled sample, offline, with no console errors.
import { afterAll, expect, it } from 'vitest';
import { openSession, screenshot, stopServer } from './harness.ts';

afterAll(async () => {
  await stopServer();
});

it('opens on the bundled sample with rows and a run, offline and without errors', async () => {
  const s = await openSession();
  try {
    await s.page.goto(s.baseUrl);
    await s.page.getByTestId('transcript-row').first().waitFor();
    await expect.poll(() => s.page.getByTestId('load-status').textContent()).toMatch(/tierscope/);
    await s.page.getByTestId('stat-hit-rate-simulated').waitFor();
    await screenshot(s.page, 'smoke');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    expect(s.failedRequests).toEqual([]);
  } finally {
    await s.close();
  }
});
