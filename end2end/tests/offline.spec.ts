import { expect, test } from '@playwright/test';
import { cell, play, watchErrors } from './support/game';
import { killServer, startOwnServer } from './support/server';

// This test stops a server, so it starts one of its own on another port.
const port = Number(process.env.HEXARENA_E2E_OFFLINE_PORT ?? 3312);

test('a hot-seat game can be finished after the server process is gone', async ({ page }) => {
  const errors = watchErrors(page);
  const server = await startOwnServer(port);
  try {
    await page.goto(`http://127.0.0.1:${port}/play/local?size=5&swap=off&new=1`);
    await expect(page.locator('body[data-hydrated="true"]')).toHaveCount(1, { timeout: 30_000 });
    await play(page, ['a3', 'a2', 'b3']);
  } finally {
    await killServer(server);
  }
  // Prove the server is really gone.
  const reachable = await page.evaluate(async (url) => {
    try {
      await fetch(url, { cache: 'no-store' });
      return true;
    } catch {
      return false;
    }
  }, `http://127.0.0.1:${port}/health`);
  expect(reachable).toBe(false);

  await play(page, ['b2', 'c3', 'c2', 'd3', 'd2', 'e3'], 'blue');
  await expect(page.getByTestId('game-status')).toHaveText('Red wins');
  await expect(page.locator('[data-winning="true"]')).toHaveCount(5);
  await page.getByTestId('undo').click();
  await expect(cell(page, 'e3')).not.toHaveAttribute('data-stone', /.*/);
  await cell(page, 'e3').click();
  await expect(page.getByTestId('game-status')).toHaveText('Red wins');
  // fetch to a dead server logs a console error; only that one is expected.
  expect(errors.filter((e) => !e.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
});
