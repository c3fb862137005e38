import { chromium, expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cell, hydrated, play, watchErrors } from './support/game';
import { chromiumLaunch, killServer, root, startOwnServer } from './support/server';

// The other tests run without the service worker (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker controls the page, its caches filled. */
async function offlineReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
}

test('after one visit the app starts offline: a hot-seat game to the end, then the engine on /analysis', async ({ context, page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await hydrated(page);
  await offlineReady(page);

  await context.setOffline(true);
  const offline = await context.newPage();
  const offlineErrors = watchErrors(offline);
  await offline.goto('/play/local');
  await hydrated(offline);
  // 11×11: Red takes row 1 from edge to edge while Blue plays row 2.
  const columns = 'abcdefghijk'.split('');
  const moves: string[] = [];
  for (let i = 0; i < 11; i++) {
    moves.push(`${columns[i]}1`);
    if (i < 10) moves.push(`${columns[i]}2`);
  }
  await play(offline, moves);
  await expect(offline.getByTestId('game-status')).toHaveText('Red wins');

  await offline.goto('/analysis');
  await hydrated(offline);
  await expect(offline.getByTestId('engine-panel')).toHaveAttribute('data-engine', 'running', { timeout: 30_000 });
  await expect(offline.getByTestId('engine-moves').locator('[data-cell]')).toHaveCount(4, { timeout: 15_000 });

  // A new game of another size starts from /play too: the app opens it
  // itself, as no page was stored for that size.
  await offline.goto('/play');
  await hydrated(offline);
  await offline.getByTestId('local-form').getByText('5×5').click();
  await offline.getByTestId('start-local').click();
  await expect(offline.locator('[data-cell]')).toHaveCount(25);
  await expect(offline.getByTestId('game-status')).toHaveText('Red to move');

  // A page that needs the server says so, instead of the browser's error.
  await offline.goto('/overview');
  await expect(offline.getByTestId('offline-page')).toContainText('You are offline');
  await expect(offline.getByRole('link', { name: 'play a friend on this device' })).toHaveAttribute('href', '/play/local');

  // Failed server calls (the live count) are expected offline; nothing else.
  const unexpected = offlineErrors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|status of 503/.test(e));
  expect(unexpected).toEqual([]);
  expect(errors).toEqual([]);
  await context.setOffline(false);
});

test('Chromium offers to install the app', async ({ baseURL }) => {
  // Chromium never offers to install from an incognito profile, which is
  // what Playwright's contexts are: this one keeps a profile on disk.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hexarena-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...chromiumLaunch, serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    await offlineReady(page);
    // Chromium's own verdict on the manifest, icons and service worker.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('a new deployment is fetched in the background, announced, and taken up on the next page', async ({ browser }) => {
  test.slow();
  // A site of our own to redeploy: a copy of the build, served on its own port.
  const port = Number(process.env.HEXARENA_E2E_PWA_PORT ?? 3313);
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'hexarena-e2e-site-'));
  fs.cpSync(path.join(root, 'target', 'site'), site, { recursive: true });
  const env = { LEPTOS_SITE_ROOT: site };
  let server = await startOwnServer(port, env);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/analysis`);
    await hydrated(page);
    await offlineReady(page);
    const firstLoader = await page.locator('meta[name="hexarena-engine-worker"]').getAttribute('content');
    expect(firstLoader).toMatch(/^\/engine\/engine-worker\.[0-9a-f]+\.js$/);

    // Redeploy: the engine worker's loader under a new hashed name.
    await killServer(server);
    const engine = path.join(site, 'engine');
    const secondLoader = firstLoader!.replace(/\.([0-9a-f]+)\.js$/, '.0000$1.js');
    fs.copyFileSync(path.join(site, firstLoader!), path.join(site, secondLoader));
    fs.writeFileSync(path.join(engine, 'manifest.json'), JSON.stringify({ loader: secondLoader }));
    server = await startOwnServer(port, env);

    // The open page learns of it and says so, discreetly; it keeps running
    // the version it started with.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByTestId('update-notice')).toBeVisible({ timeout: 30_000 });
    expect(await page.locator('meta[name="hexarena-engine-worker"]').getAttribute('content')).toBe(firstLoader);

    // The next page is the new version, whole, and its engine runs.
    await page.getByRole('button', { name: 'Reload now' }).click();
    await hydrated(page);
    await expect(page.locator('meta[name="hexarena-engine-worker"]')).toHaveAttribute('content', secondLoader);
    await expect(page.getByTestId('update-notice')).toHaveCount(0);
    await expect(page.getByTestId('engine-panel')).toHaveAttribute('data-engine', 'running', { timeout: 30_000 });
    // The new worker keeps the new build and the one before it.
    const builds = () =>
      page.evaluate(async () => {
        const list = await (await caches.open('hexarena-builds')).match('/builds');
        return list ? ((await list.json()) as string[]).length : 0;
      });
    await expect.poll(builds, { timeout: 15_000 }).toBe(2);
  } finally {
    await context.close();
    await killServer(server);
    fs.rmSync(site, { recursive: true, force: true });
  }
});
