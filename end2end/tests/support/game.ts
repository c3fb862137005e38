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
