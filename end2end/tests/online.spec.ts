import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { cell, hydrated, watchErrors } from './support/game';
import { root } from './support/server';
import { PASSWORD, signUp } from './support/accounts';

/** A fresh browser context (its own storage), like a second person. */
async function person(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** Signs up on /login, so this browser's games are rated. */
async function register(page: Page, name: string): Promise<void> {
  await signUp(page, name);
  await page.goto('/play');
  await hydrated(page);
  await expect(page.getByTestId('identity-name-shown')).toContainText(`You play as ${name}`);
}

/** The game number from a /game/<id> address. */
function gameId(page: Page): string {
  const m = /\/game\/(\d+)/.exec(page.url());
  if (!m) throw new Error(`not a game page: ${page.url()}`);
  return m[1];
}

test('quick match: two people play, a spectator follows, a reload resumes', async ({ browser }) => {
  const alice = await person(browser);
  const bob = await person(browser);
  const carol = await person(browser);
  // Options no other test uses, so parallel tests never meet in this pool.
  const q = 'size=5&series=1&swap=off&time=none';
  await register(alice.page, 'Alice');
  await register(bob.page, 'Bob');
  // A name is taken once, whatever its case.
  await carol.page.goto('/login');
  await hydrated(carol.page);
  await carol.page.getByTestId('signup-name').fill('ALICE');
  await carol.page.getByTestId('signup-password').fill(PASSWORD);
  await carol.page.getByTestId('signup-submit').click();
  await expect(carol.page.getByTestId('signup-error')).toContainText('is taken');
  await alice.page.goto(`/play/online?${q}`);
  await hydrated(alice.page);
  await expect(alice.page).toHaveURL(/\/game\/\d+$/);
  await expect(alice.page.getByTestId('game-status')).toHaveText('Waiting for an opponent to join');
  const id = gameId(alice.page);

  await bob.page.goto(`/play/online?${q}`);
  await hydrated(bob.page);
  await expect(bob.page).toHaveURL(new RegExp(`/game/${id}$`));
  await expect(alice.page.getByTestId('game-status')).toHaveText('Your move (Red)');
  await expect(bob.page.getByTestId('game-status')).toHaveText('Alice to move (Red)');
  await expect(bob.page.getByTestId('seat-blue')).toContainText('Bob (you)');

  await carol.page.goto(`/game/${id}`);
  await hydrated(carol.page);
  await expect(carol.page.getByTestId('spectators')).toHaveText('1 spectator');
  await expect(alice.page.getByTestId('spectators')).toHaveText('1 spectator');

  // Red runs along row 1, Blue along row 2; everyone sees every stone.
  const moves: [Page, string, 'red' | 'blue'][] = [
    [alice.page, 'a1', 'red'],
    [bob.page, 'a2', 'blue'],
    [alice.page, 'b1', 'red'],
    [bob.page, 'b2', 'blue'],
  ];
  for (const [who, at, colour] of moves) {
    await cell(who, at).click();
    for (const p of [alice.page, bob.page, carol.page]) {
      await expect(cell(p, at)).toHaveAttribute('data-stone', colour);
    }
  }
  await expect(carol.page.getByTestId('move-list').locator('li')).toHaveCount(4);

  // Bob reloads mid-game: same seat, same board, and the game goes on.
  await bob.page.reload();
  await hydrated(bob.page);
  await expect(bob.page.getByTestId('seat-blue')).toContainText('Bob (you)');
  await expect(cell(bob.page, 'b2')).toHaveAttribute('data-stone', 'blue');
  await cell(alice.page, 'c1').click();
  await expect(bob.page.getByTestId('game-status')).toHaveText('Your move (Blue)');
  await cell(bob.page, 'c2').click();
  await expect(cell(alice.page, 'c2')).toHaveAttribute('data-stone', 'blue');
  await cell(alice.page, 'd1').click();
  await cell(bob.page, 'd2').click();
  await expect(cell(alice.page, 'd2')).toHaveAttribute('data-stone', 'blue');
  await cell(alice.page, 'e1').click();

  for (const p of [alice.page, bob.page, carol.page]) {
    await expect(p.getByTestId('game-status')).toHaveText('Alice (Red) wins');
    await expect(p.locator('[data-winning="true"]')).toHaveCount(5);
  }

  // The archive has it: the leaderboard moved, and the game replays.
  const stats = carol.page;
  await expect(async () => {
    await stats.goto('/statistics');
    await expect(stats.getByTestId('leaderboard-row').filter({ hasText: 'Alice' })).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await hydrated(stats);
  const rating = async (name: string) =>
    Number(((await stats.getByTestId('leaderboard-row').filter({ hasText: name }).getByTestId('rating').textContent()) ?? '').split(' ')[0]);
  expect(await rating('Alice')).toBeGreaterThan(1500);
  expect(await rating('Bob')).toBeLessThan(1500);
  await expect(stats.getByTestId('games-chart')).toBeVisible();
  // This series' link: tests running beside this one finish series too.
  await stats.getByTestId('recent-matches').locator(`a[href$="/games/${id}-1"]`).click();
  await expect(stats).toHaveURL(new RegExp(`/games/${id}-1$`));
  await hydrated(stats);
  await expect(stats.getByTestId('game-status')).toHaveText('Alice (Red) won by connecting');
  await expect(stats.getByTestId('move-list').locator('li')).toHaveCount(9);
  await expect(cell(stats, 'e1')).toHaveAttribute('data-stone', 'red');
  await stats.getByTestId('replay-back').click();
  await expect(cell(stats, 'e1')).not.toHaveAttribute('data-stone', 'red');
  await expect(stats.getByTestId('review')).toHaveAttribute('href', /\/analysis\?record=/);
  await stats.goto('/games?player=alice&size=5');
  await expect(stats.getByTestId('games-row').filter({ hasText: `${id}-1` })).toHaveCount(1);
  for (const who of [alice, bob, carol]) expect(who.errors).toEqual([]);
});

test('a private room: create, share the link, join, chat', async ({ browser }) => {
  const alice = await person(browser);
  const bob = await person(browser);
  await alice.page.goto('/play');
  await hydrated(alice.page);
  const form = alice.page.getByTestId('room-form');
  await form.getByTestId('room-size').selectOption('7');
  await form.getByTestId('room-name').fill('Ada');
  await form.getByTestId('create-room').click();
  await expect(alice.page).toHaveURL(/\/game\/\d+\?join=[A-Z2-9]{6}/);
  await hydrated(alice.page);
  await expect(alice.page.getByTestId('game-status')).toHaveText('Waiting for an opponent to join');
  const link = alice.page.getByTestId('share-link');
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  const code = await alice.page.getByTestId('room-code').textContent();
  expect(href).toContain(`join=${code}`);

  // Bob types the code on /play.
  await bob.page.goto('/play');
  await hydrated(bob.page);
  await bob.page.getByTestId('join-code').fill('nope42');
  await bob.page.getByTestId('join-room').click();
  await expect(bob.page.getByTestId('join-error')).toContainText('No open room has the code');
  await bob.page.getByTestId('join-code').fill((code ?? '').toLowerCase());
  await bob.page.getByTestId('join-room').click();
  await expect(bob.page).toHaveURL(/\/game\/\d+/);
  await hydrated(bob.page);
  await expect(bob.page.getByTestId('game-status')).toHaveText('Ada · guest to move (Red)');
  await expect(alice.page.getByTestId('game-status')).toHaveText('Your move (Red)');
  await expect(alice.page.getByTestId('share-link')).toHaveCount(0);

  await alice.page.getByTestId('chat-input').fill('good luck!');
  await alice.page.getByTestId('chat-input').press('Enter');
  await expect(bob.page.getByTestId('chat')).toContainText('Ada · guest: good luck!');

  // Resigning gives Bob the game.
  await alice.page.getByTestId('resign').click();
  await alice.page.getByTestId('resign').click();
  await expect(bob.page.getByTestId('game-status')).toContainText('wins by resignation');
  for (const who of [alice, bob]) expect(who.errors).toEqual([]);
});

test('a browser player beats or loses to the hexgame reference client', async ({ page, baseURL }) => {
  const bin = path.join(root, 'target', 'hexgame-venv', 'bin', 'hexgame');
  test.skip(!fs.existsSync(bin), `LOUD SKIP: hexgame reference client missing at ${bin}; scripts/test.sh installs it`);
  const errors = watchErrors(page);
  await page.goto('/play/online?size=7&series=1&swap=off&time=none&name=Human');
  await hydrated(page);
  await expect(page).toHaveURL(/\/game\/\d+$/);
  const server = (baseURL ?? '').replace(/^http/, 'ws');
  const bot = spawn(bin, ['random', '--server', server, '--board-size', '7', '--seed', '5', '--move-delay', '0.05']);
  let botOut = '';
  bot.stdout.on('data', (d) => (botOut += d));
  const botDone = new Promise<number>((resolve) => bot.on('exit', (code) => resolve(code ?? -1)));

  const status = page.getByTestId('game-status');
  await expect(page.getByTestId('seat-blue')).toContainText('random_client');
  for (let turn = 0; turn < 30; turn++) {
    await expect(status).toHaveText(/Your move|wins/);
    if (((await status.textContent()) ?? '').includes('wins')) break;
    const empty = page.locator('svg.hex-board [data-cell]:not([data-stone])').first();
    const name = await empty.getAttribute('data-cell');
    await empty.click();
    await expect(cell(page, name ?? '')).toHaveAttribute('data-stone', 'red');
  }
  await expect(status).toHaveText(/wins/);
  expect(await botDone).toBe(0);
  expect(botOut).toContain("'type': 'series_over'");
  expect(errors).toEqual([]);
});

test('the overview lists live games and follows them', async ({ browser }) => {
  const watcher = await person(browser);
  await watcher.page.goto('/overview');
  await hydrated(watcher.page);
  const player = await person(browser);
  await player.page.goto('/play/online?size=9&series=3&swap=on&time=3%2B2&name=Olga');
  await hydrated(player.page);
  await expect(player.page).toHaveURL(/\/game\/\d+$/);
  const id = gameId(player.page);
  const card = watcher.page.locator(`[data-testid="overview-card"][data-game="${id}"]`);
  await expect(card).toContainText('Olga');
  await expect(card.getByTestId('overview-status')).toHaveText('Waiting for an opponent');
  await card.getByTestId('watch-link').click();
  await expect(watcher.page).toHaveURL(new RegExp(`/game/${id}$`));
  await hydrated(watcher.page);
  await expect(watcher.page.getByTestId('table-rules')).toHaveText('9×9 board, swap on, best of 3, 3+2 clock');
  expect(watcher.errors).toEqual([]);
  expect(player.errors).toEqual([]);
});

test('quick match: a socket that drops before a seat is given asks again, then says why it gave up', async ({ browser }) => {
  // The first socket is cut before the server hears of it, as a dropped
  // network or a restarting server would: the page asks again and is seated.
  const once = await person(browser);
  let cut = 0;
  await once.page.routeWebSocket(/\/ws\/play/, (ws) => {
    if (cut === 0) {
      cut += 1;
      ws.close();
    } else {
      ws.connectToServer();
    }
  });
  await once.page.goto('/play/online?size=6&series=1&swap=off&time=none&name=Dropped');
  await hydrated(once.page);
  await expect(once.page).toHaveURL(/\/game\/\d+$/, { timeout: 10_000 });
  await expect(once.page.getByTestId('game-status')).toHaveText('Waiting for an opponent to join');
  expect(cut).toBe(1);

  // Every socket cut: after its attempts the page stops and says so.
  const never = await person(browser);
  let attempts = 0;
  await never.page.routeWebSocket(/\/ws\/play/, (ws) => {
    attempts += 1;
    ws.close();
  });
  await never.page.goto('/play/online?size=6&series=1&swap=off&time=none&name=Unreachable');
  await hydrated(never.page);
  await expect(never.page.getByTestId('game-status')).toHaveText('Could not start a game (see the message below).', {
    timeout: 30_000,
  });
  await expect(never.page.getByTestId('notice')).toContainText('The server could not be reached to find a game');
  expect(attempts).toBe(9);
  expect(once.errors).toEqual([]);
  expect(never.errors).toEqual([]);
});
