import { expect, test } from '@playwright/test';
import { cell, hydrated, playFirstEmptyCells, watchErrors } from './support/game';

test('a full 7×7 game against the engine ends with a result', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/play');
  await hydrated(page);
  await page.getByTestId('local-form').getByText('7×7').click();
  await page.getByTestId('level').selectOption('beginner');
  await page.getByTestId('start-engine').click();
  await hydrated(page);
  await expect(page).toHaveURL(/\/play\/engine$/);
  const status = page.getByTestId('game-status');
  await expect(status).toHaveText('Red to move');

  // The person plays Red: the first empty cell each turn until the end.
  await playFirstEmptyCells(page, 'Red', 30);
  await expect(status).toContainText('wins');
  await expect(page.locator('[data-winning="true"]').first()).toBeVisible();
  const blue = await page.locator('[data-stone="blue"]').count();
  expect(blue).toBeGreaterThan(2);
  expect(errors).toEqual([]);
});

test("the engine opens when it plays Red, and undo returns to the person's turn", async ({ page }) => {
  await page.goto('/play/engine?size=5&swap=off&level=strong&colour=blue&new=1');
  await hydrated(page);
  // Red (the engine) opens at once.
  await expect(page.locator('[data-stone="red"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('game-status')).toHaveText('Blue to move');
  // The move list and other controls react during play.
  await expect(page.getByTestId('move-list').locator('li')).toHaveCount(1);
  await page.getByTestId('undo').click();
  // Undo goes back to the person's turn; with Red's opening taken back the
  // engine plays again.
  await expect(page.locator('[data-stone="red"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(cell(page, 'a1')).toBeVisible();
});

test('the top level, which proves before it searches, wins 5×5 from the centre', async ({ page }) => {
  const errors = watchErrors(page);
  // Every 5×5 position has few enough empty cells for the max level's
  // worker to run the solver before its search on each move.
  await page.goto('/play/engine?size=5&swap=off&level=max&colour=blue&new=1');
  await hydrated(page);
  await expect(cell(page, 'c3')).toHaveAttribute('data-stone', 'red', { timeout: 20_000 });
  await playFirstEmptyCells(page, 'Blue', 13);
  const status = page.getByTestId('game-status');
  // The centre wins for the first player, and a proved win is kept.
  await expect(status).toContainText('Red');
  await expect(status).toContainText('wins');
  expect(errors).toEqual([]);
});

test('the top level checks its choices after its search and answers on 9×9', async ({ page }) => {
  const errors = watchErrors(page);
  // With 81 empty cells there is no proof before the search, but every
  // 9×9 move of the max level ends with the solver's check of its best
  // choices, which the worker steps between its messages. A move takes
  // about 5 s here with another test beside it (docs/benchmarks.md); the
  // waits leave room for a slower machine.
  test.setTimeout(180_000);
  await page.goto('/play/engine?size=9&swap=off&level=max&colour=blue&new=1');
  await hydrated(page);
  await expect(page.locator('[data-stone="red"]')).toHaveCount(1, { timeout: 50_000 });
  await playFirstEmptyCells(page, 'Blue', 2, 50_000);
  await expect(page.locator('[data-stone="red"]')).toHaveCount(3, { timeout: 50_000 });
  await expect(page.getByTestId('game-status')).toHaveText('Blue to move');
  expect(errors).toEqual([]);
});
