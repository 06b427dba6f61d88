import type { Page } from 'playwright-core';
import { freshCode } from './codes.js';

/** Signs in through the login page the way a person does, with the account's current code. */
export async function signIn(page: Page, baseUrl: string, account: string, secret: string, password = 'demo1234') {
  await page.goto(`${baseUrl}/login`);
  await page.locator('#userName').fill(`  ${account} `); // the page trims it (spec section 5)
  await page.locator('#password').fill(password);
  await page.locator('#googleCode').fill(await freshCode(secret));
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${baseUrl}/home`);
  await page.getByTestId('side-menu').waitFor();
}

/** The route names of the side menu's items, whether their group is open or not. */
export async function menuRouteNames(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('side-menu')
    .locator('[data-testid^="menu-item-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  return [...new Set(ids.map((id) => id.replace('menu-item-', '')))].sort();
}

export async function chooseLanguage(page: Page, label: string) {
  await page.getByTestId('language-switch').first().click();
  await page.locator('.ant-select-item-option', { hasText: label }).click();
}

export async function logOut(page: Page, baseUrl: string) {
  await page.getByTestId('user-menu').click();
  await page.locator('.ant-dropdown-menu-item-danger').click();
  await page.waitForURL(`${baseUrl}/login`);
}
