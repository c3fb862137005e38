import { expect, type Page } from '@playwright/test';
import { hydrated } from './game';

/** A password every test account uses (not a common one). */
export const PASSWORD = 'hex on a rhombus 11';

/** A name no other test (or earlier run on the same database) has taken. */
export function uniqueName(base: string): string {
  const letters = 'abcdefghjkmnpqrstuvwxyz';
  let tail = '';
  for (let i = 0; i < 6; i++) tail += letters[Math.floor(Math.random() * letters.length)];
  return `${base}${tail}`.slice(0, 24);
}

/** Signs up on /login; the page goes on to the account's settings. */
export async function signUp(page: Page, name: string): Promise<void> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByTestId('signup-name').fill(name);
  await page.getByTestId('signup-password').fill(PASSWORD);
  await page.getByTestId('signup-submit').click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('account-name')).toHaveText(name);
}

/** Logs in on /login with the test password. */
export async function logIn(page: Page, name: string): Promise<void> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('account-name')).toHaveText(name);
}
