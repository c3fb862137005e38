import { expect, test } from '@playwright/test';
import { hydrated, watchErrors } from './support/game';

test('the landing page shows a finished game and leads to play', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hex, the connection game.');
  await expect(page.locator('[data-winning="true"]').first()).toBeVisible();
  await page.getByRole('link', { name: 'Play now' }).click();
  await expect(page).toHaveURL(/\/play$/);
  await expect(page.getByRole('heading', { name: 'New game' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('the navigation reaches every page and marks the current one', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/docs');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'The swap rule' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Docs' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Play' }).click();
  await expect(page).toHaveURL(/\/play$/);
  await expect(nav.getByRole('link', { name: 'Play' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The docs' prose comes only with the server's page (not in the WASM):
  // reaching it from another page still shows it all.
  await hydrated(page);
  await nav.getByRole('link', { name: 'Docs' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole('heading', { name: 'Accounts, guests and bots' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a link to /docs followed inside the app still shows the prose', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/play');
  await hydrated(page);
  // An in-app navigation, as the router makes for any plain link.
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/docs#bots';
    a.textContent = 'docs';
    document.body.appendChild(a);
    a.click();
  });
  await expect(page.getByRole('heading', { name: 'Bots: hexgame protocol v1' })).toBeVisible();
  await expect(page.getByText('hexgame play --model-name my_agent --server ws://HOST:PORT/bot/TOKEN')).toBeVisible();
  expect(errors).toEqual([]);
});

test('any size from 3 to 19 can be chosen; the swap default follows the size', async ({ page }) => {
  await page.goto('/play');
  await hydrated(page);
  await page.getByTestId('size-input').fill('13');
  await expect(page.getByTestId('local-form').getByRole('radio', { name: 'On', exact: true })).toBeChecked();
  await page.getByTestId('local-form').getByText('7×7').click();
  await expect(page.getByTestId('local-form').getByRole('radio', { name: 'Off', exact: true })).toBeChecked();
  await page.getByTestId('size-input').fill('19');
  await page.getByTestId('start-local').click();
  await hydrated(page);
  await expect(page.locator('[data-cell]')).toHaveCount(361);
  await expect(page.locator('[data-cell="s19"]')).toHaveCount(1);
});

test('an unknown address shows a 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('no page is wider than a phone screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  for (const path of ['/', '/play', '/play/local', '/play/engine', '/analysis', '/docs', '/overview', '/statistics', '/games', '/login', '/account', '/players/nobody']) {
    await page.goto(path);
    await hydrated(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(360);
  }
  await context.close();
});

test('every page runs under the Content-Security-Policy with no console error', async ({ page }) => {
  const errors = watchErrors(page);
  for (const path of ['/', '/play', '/play/local', '/play/engine', '/analysis', '/docs', '/overview', '/statistics', '/games', '/login', '/account', '/players/nobody']) {
    const response = await page.goto(path);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy'], path).toContain("script-src 'self' 'nonce-");
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('same-origin');
    await hydrated(page);
  }
  // The 404 page too (its status is an error the console reports, so it
  // is fetched, not visited).
  const missing = await page.request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(missing.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  // The engine's worker (its own module script and WebAssembly) runs too.
  await page.goto('/analysis');
  await hydrated(page);
  await expect(page.getByTestId('engine-panel')).toHaveAttribute('data-engine', 'running', { timeout: 30_000 });
  expect(errors).toEqual([]);
});
