import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { freshCode } from './codes.js';

/** Signs in through the login page the way a person does, with the account's current code. */
export async function signIn(page: Page, baseUrl: string, account: string, secret: string, password = 'demo1234') {
  await page.goto(`${baseUrl}/login`);
  await page.locator('#userName').fill(`  ${account} `); // the page trims it (spec section 5)
  await page.locator('#password').fill(password);
  await page.locator('#googleCode').fill(await freshCode(secret));
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${baseUrl}/home`);
  // The shell is up: its menu button is there on every screen (on a phone the menu is a closed drawer).
  await page.getByTestId('menu-toggle').waitFor();
}

/** The route names of the side menu's items, whether their group is open or not. */
export async function menuRouteNames(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('side-menu')
    .locator('[data-testid^="menu-item-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  return [...new Set(ids.map((id) => id.replace('menu-item-', '')))].sort();
}

/**
 * Opens an antd select and picks the option with this text, then waits until its dropdown has closed
 * and the select shows the option. Closed dropdowns stay in the page (hidden), so only the visible one
 * is searched; under load a click can land while the list is still animating in and be lost (the list
 * stays open over the buttons below it, or closes with the old value), so the pick is repeated.
 */
export async function chooseOption(page: Page, select: Locator, text: string) {
  const open = page.locator('.ant-select-dropdown:visible');
  for (let attempt = 0; ; attempt++) {
    if ((await open.count()) === 0) await select.click();
    await open.locator('.ant-select-item-option', { hasText: text }).first().click();
    try {
      await open.first().waitFor({ state: 'hidden', timeout: 5_000 });
      await expect.poll(async () => (await select.textContent()) ?? '', { timeout: 3_000 }).toContain(text);
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

/** Picks a language in the header's (or the login page's) language select, a native one. */
export async function chooseLanguage(page: Page, label: string) {
  await page.getByTestId('language-switch').first().selectOption({ label });
}

export async function logOut(page: Page, baseUrl: string) {
  await page.getByTestId('user-menu').click();
  await page.locator('.ant-dropdown-menu-item-danger').click();
  await page.waitForURL(`${baseUrl}/login`);
}
