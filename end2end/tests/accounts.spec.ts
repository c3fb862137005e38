import { expect, test, type Browser, type Page } from '@playwright/test';
import { cell, hydrated, watchErrors } from './support/game';
import { logIn, signUp, uniqueName } from './support/accounts';

async function person(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** The rating shown for `name` on /statistics (people's board). */
async function leaderboardRating(page: Page, name: string): Promise<number> {
  const row = page.getByTestId('leaderboard-row').filter({ hasText: name });
  const text = (await row.getByTestId('rating').textContent()) ?? '';
  return Number(text.split(' ')[0]);
}

test('two accounts play a rated game, see their ratings move, log in elsewhere and rematch', async ({ browser }) => {
  const ann = await person(browser);
  const ben = await person(browser);
  const annName = uniqueName('Ann');
  const benName = uniqueName('Ben');
  await signUp(ann.page, annName);
  await signUp(ben.page, benName);
  await expect(ann.page.getByTestId('nav-account')).toHaveText(annName);

  // A pool of their own (a size and clock no other test picks).
  const q = 'size=3&series=1&swap=off&time=30%2B20';
  await ann.page.goto(`/play/online?${q}`);
  await hydrated(ann.page);
  await expect(ann.page).toHaveURL(/\/game\/\d+$/);
  await ben.page.goto(`/play/online?${q}`);
  await hydrated(ben.page);
  await expect(ben.page.getByTestId('seat-red')).toContainText(annName);
  await expect(ben.page.getByTestId('seat-red')).not.toContainText('guest');

  // Ann (Red) joins left and right along the top row.
  for (const [who, at] of [
    [ann.page, 'a1'],
    [ben.page, 'a2'],
    [ann.page, 'b1'],
    [ben.page, 'b2'],
    [ann.page, 'c1'],
  ] as [Page, string][]) {
    await expect(who.getByTestId('game-status')).toHaveText(/Your move/);
    await cell(who, at).click();
  }
  for (const p of [ann.page, ben.page]) await expect(p.getByTestId('game-status')).toContainText('wins');

  // Both ratings moved, on the leaderboard and on the profile pages.
  const stats = ann.page.context().newPage();
  const board = await stats;
  await expect(async () => {
    await board.goto('/statistics?board=people');
    await expect(board.getByTestId('leaderboard-row').filter({ hasText: benName })).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await hydrated(board);
  expect(await leaderboardRating(board, annName)).toBeGreaterThan(1500);
  expect(await leaderboardRating(board, benName)).toBeLessThan(1500);
  await board.goto(`/players/${benName}`);
  await hydrated(board);
  await expect(board.getByTestId('profile-name')).toHaveText(benName);
  const benAll = Number(((await board.getByTestId('rating-all').textContent()) ?? '').split(' ')[0]);
  expect(benAll).toBeLessThan(1500);
  await expect(board.getByTestId('rating-small')).toBeVisible();
  await expect(board.getByTestId('rating-graph-all')).toBeVisible();
  await expect(board.getByTestId('profile-results')).toContainText('0–1');
  await expect(board.getByTestId('profile-games').locator('li')).toHaveCount(1);

  // A third browser logs in to Ann's account and is Ann there.
  const third = await person(browser);
  await logIn(third.page, annName);
  await third.page.goto('/play');
  await hydrated(third.page);
  await expect(third.page.getByTestId('identity-name-shown')).toContainText(`You play as ${annName}`);

  // Rematch: Ben offers, Ann accepts; both land at a new table, colours swapped.
  const gameUrl = ann.page.url();
  await ben.page.getByTestId('rematch-offer').click();
  await expect(ben.page.getByTestId('rematch-status')).toContainText('waiting for your opponent');
  await expect(ann.page.getByTestId('rematch-status')).toContainText(`${benName} offers a rematch`);
  await ann.page.getByTestId('rematch-accept').click();
  for (const p of [ann.page, ben.page]) {
    await expect(p).not.toHaveURL(gameUrl);
    await expect(p).toHaveURL(/\/game\/\d+$/);
    await hydrated(p);
  }
  expect(ann.page.url()).toEqual(ben.page.url());
  await expect(ben.page.getByTestId('seat-red')).toContainText(`${benName} (you)`);
  await expect(ann.page.getByTestId('seat-blue')).toContainText(`${annName} (you)`);
  await expect(ben.page.getByTestId('game-status')).toHaveText('Your move (Red)');
  await cell(ben.page, 'b2').click();
  await expect(cell(ann.page, 'b2')).toHaveAttribute('data-stone', 'red');

  for (const who of [ann, ben, third]) expect(who.errors).toEqual([]);
});

test('a guest plays unrated and is marked as a guest', async ({ browser }) => {
  const guest = await person(browser);
  const host = await person(browser);
  await guest.page.goto('/play');
  await hydrated(guest.page);
  await expect(guest.page.getByTestId('identity-guest')).toContainText('guest');
  await guest.page.goto('/play/online?size=3&series=1&swap=off&time=10%2B5&name=Visitor');
  await hydrated(guest.page);
  await expect(guest.page).toHaveURL(/\/game\/\d+$/);
  await host.page.goto(guest.page.url());
  await hydrated(host.page);
  await expect(host.page.getByTestId('seat-red')).toContainText('Visitor · guest');
  for (const who of [guest, host]) expect(who.errors).toEqual([]);
});

test('logging in with a wrong password says so and sets no session', async ({ page }) => {
  const errors = watchErrors(page);
  const name = uniqueName('Cleo');
  await signUp(page, name);
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account');
  await hydrated(page);
  await expect(page.getByTestId('account-logged-out')).toBeVisible();
  await page.goto('/login');
  await hydrated(page);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill('not my password at all');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('Wrong name or password');
  expect(errors).toEqual([]);
});
