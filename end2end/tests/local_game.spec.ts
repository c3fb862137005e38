import { expect, test } from '@playwright/test';
import { cell, hydrated, newLocalGame, play, watchErrors } from './support/game';

test.describe('hot-seat game', () => {
  let errors: string[] = [];
  test.beforeEach(({ page }) => {
    errors = watchErrors(page);
  });
  test.afterEach(() => {
    expect(errors).toEqual([]);
  });

  test('a full 5×5 game played by clicking ends with the winning chain outlined', async ({ page }) => {
    await page.goto('/play');
    await hydrated(page);
    await page.getByTestId('local-form').getByText('5×5').click();
    await page.getByTestId('local-form').getByRole('radio', { name: 'Off', exact: true }).check();
    await page.getByTestId('start-local').click();
    await hydrated(page);
    await expect(page).toHaveURL(/\/play\/local$/);
    await expect(page.locator('[data-cell]')).toHaveCount(25);
    const status = page.getByTestId('game-status');
    await expect(status).toHaveText('Red to move');

    // Red runs along the top row; Blue answers on the row below.
    await play(page, ['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'd1', 'd2']);
    await expect(status).toHaveText('Red to move');
    await cell(page, 'e1').click();
    await expect(status).toHaveText('Red wins');
    const chain = page.locator('[data-winning="true"]');
    await expect(chain).toHaveCount(5);
    for (const c of ['a1', 'b1', 'c1', 'd1', 'e1']) {
      await expect(cell(page, c)).toHaveAttribute('data-winning', 'true');
    }
    await expect(page.getByTestId('announcer')).toHaveText('Red played e1. Red wins!');
    await expect(page.getByTestId('move-list').locator('li')).toHaveCount(9);

    // The game is over: cells say so, and a click places nothing.
    await expect(cell(page, 'e5')).toHaveAttribute('aria-disabled', 'true');
    await cell(page, 'e5').click({ force: true });
    await expect(cell(page, 'e5')).not.toHaveAttribute('data-stone', /.*/);
  });

  test('undo takes back moves, including the winning one', async ({ page }) => {
    await newLocalGame(page, 3, false);
    await play(page, ['b2', 'a2']);
    await page.getByTestId('undo').click();
    await expect(cell(page, 'a2')).not.toHaveAttribute('data-stone', /.*/);
    await expect(page.getByTestId('game-status')).toHaveText('Blue to move');
    await expect(page.getByTestId('move-list').locator('li')).toHaveCount(1);

    await play(page, ['a1', 'a2', 'a3', 'c2'], 'blue');
    await expect(page.getByTestId('game-status')).toHaveText('Red wins');
    await page.getByTestId('undo').click();
    await expect(page.getByTestId('game-status')).toHaveText('Red to move');
    await expect(page.locator('[data-winning="true"]')).toHaveCount(0);
  });

  test('a reload keeps the game in progress', async ({ page }) => {
    await newLocalGame(page, 7, false);
    await play(page, ['d4', 'c5', 'e3']);
    await page.reload();
    await hydrated(page);
    await expect(cell(page, 'd4')).toHaveAttribute('data-stone', 'red');
    await expect(cell(page, 'c5')).toHaveAttribute('data-stone', 'blue');
    await expect(cell(page, 'e3')).toHaveAttribute('data-stone', 'red');
    await expect(page.locator('[data-cell]')).toHaveCount(49);
    await expect(page.getByTestId('game-status')).toHaveText('Blue to move');
    await expect(page.getByTestId('move-list').locator('li')).toHaveCount(3);
  });

  test('export then import restores the game; a bad record changes nothing', async ({ page }) => {
    await newLocalGame(page, 9, true);
    await play(page, ['e3']);
    await expect(page.getByTestId('game-status')).toHaveText('Blue to move — or swap');
    await page.getByTestId('swap').click();
    // Red's e3 becomes Blue's c5, mirrored across the short diagonal.
    await expect(cell(page, 'c5')).toHaveAttribute('data-stone', 'blue');
    await expect(cell(page, 'e3')).not.toHaveAttribute('data-stone', /.*/);
    await play(page, ['d4', 'f6']);

    await page.getByText('Export').click();
    await page.getByTestId('export-format').selectOption('sgf');
    const sgf = await page.getByTestId('export-text').inputValue();
    expect(sgf).toMatch(/^\(;FF\[4\].*GM\[11\]SZ\[9\];B\[c5\];W\[swap-pieces\];B\[d4\];W\[f6\]\)$/);

    await page.getByTestId('new-game').click();
    await page.getByTestId('new-game').click();
    await expect(page.locator('[data-stone]')).toHaveCount(0);

    await page.getByText('Import').click();
    await page.getByTestId('import-text').fill('(;FF[4]GM[11]SZ[9];B[a1];W[a1])');
    await page.getByTestId('import-button').click();
    await expect(page.getByRole('alert')).toContainText('move 2 is illegal');
    await expect(page.locator('[data-stone]')).toHaveCount(0);

    await page.getByTestId('import-text').fill(sgf);
    await page.getByTestId('import-button').click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(cell(page, 'c5')).toHaveAttribute('data-stone', 'blue');
    await expect(cell(page, 'd4')).toHaveAttribute('data-stone', 'red');
    await expect(cell(page, 'f6')).toHaveAttribute('data-stone', 'blue');
    await expect(page.getByTestId('move-list').locator('li')).toHaveCount(4);
    await expect(page.getByTestId('game-status')).toHaveText('Red to move');

    // The trmph form of the same game reads back to the same board too.
    await page.getByTestId('export-format').selectOption('trmph');
    await expect(page.getByTestId('export-text')).toHaveValue('https://trmph.com/hex/board#9,c5c5d4f6');
  });

  test('the keyboard moves a cursor and plays with Enter', async ({ page }) => {
    await newLocalGame(page, 5, false);
    await page.locator('svg.hex-board').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(cell(page, 'd2')).toHaveAttribute('data-stone', 'red');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press(' ');
    await expect(cell(page, 'c2')).toHaveAttribute('data-stone', 'blue');
    await expect(page.getByTestId('announcer')).toHaveText('Blue played c2.');
  });

  test('clicking a move shows the board as it was, then back', async ({ page }) => {
    await newLocalGame(page, 5, false);
    await play(page, ['c3', 'b2', 'd2']);
    await page.getByRole('button', { name: 'Move 1: Red c3' }).click();
    await expect(page.getByTestId('game-status')).toHaveText('Viewing move 1 of 3');
    await expect(page.locator('[data-stone]')).toHaveCount(1);
    await page.getByTestId('back-to-game').click();
    await expect(page.locator('[data-stone]')).toHaveCount(3);
    await expect(page.getByTestId('game-status')).toHaveText('Blue to move');
  });
});
