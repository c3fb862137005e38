import { expect, type Page } from '@playwright/test';

/** Fails the test on any uncaught error or console error in the page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** Waits until the WASM client has hydrated the server's HTML. */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('body[data-hydrated="true"]')).toHaveCount(1, { timeout: 30_000 });
}

/** Opens a fresh hot-seat game of the given size. */
export async function newLocalGame(page: Page, size: number, swap: boolean): Promise<void> {
  await page.goto(`/play/local?size=${size}&swap=${swap ? 'on' : 'off'}&new=1`);
  await hydrated(page);
  await expect(page).toHaveURL(/\/play\/local$/);
}

export function cell(page: Page, name: string) {
  return page.locator(`svg.hex-board [data-cell="${name}"]`);
}

/** Clicks each cell in turn and checks the stone lands with the right colour. */
export async function play(page: Page, moves: string[], firstColour: 'red' | 'blue' = 'red'): Promise<void> {
  let colour = firstColour;
  for (const m of moves) {
    await cell(page, m).click();
    await expect(cell(page, m)).toHaveAttribute('data-stone', colour);
    colour = colour === 'red' ? 'blue' : 'red';
  }
}

export async function status(page: Page) {
  return page.getByTestId('game-status');
}

/** Plays the person's side against the engine, taking the first empty
 * cell on each of its turns and waiting for the engine's answer, until a
 * side wins (or `turns` moves of the person's have been played), giving
 * each of the engine's moves `engineMs`. */
export async function playFirstEmptyCells(
  page: Page,
  person: 'Red' | 'Blue',
  turns: number,
  engineMs = 20_000,
): Promise<void> {
  const gameStatus = page.getByTestId('game-status');
  for (let turn = 0; turn < turns; turn++) {
    const text = (await gameStatus.textContent()) ?? '';
    if (text.includes('wins')) break;
    await expect(gameStatus).toHaveText(`${person} to move`, { timeout: engineMs });
    const stonesBefore = await page.locator('[data-stone]').count();
    await page.locator('[data-cell]:not([data-stone])').first().click();
    await expect(page.locator('[data-stone]')).not.toHaveCount(stonesBefore);
    await expect(gameStatus).not.toHaveText(/to move — the engine is thinking/, { timeout: engineMs });
  }
}
