import { canAccessRoute, menuRoutesFor, ROUTES, type Role } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../apps/server/src/seed/seed.js';
import { BUILT_PAGES } from '../apps/web/src/app/built-pages.js';
import { routeLocales } from '../apps/web/src/app/routes.locales.js';
import { chooseLanguage, logOut, menuRouteNames, signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

const suite = consoleSuite();
const secretOf = (account: string) => suite.secretOf(account);

/** What the contract grants the role in the menu, among the pages that exist (an agent has no team pages). */
const expectedMenu = (role: Role, account: string) =>
  menuRoutesFor(role, { agent: DEMO_ACCOUNTS.some((a) => a.account === account && a.parent) })
    .map((r) => r.name)
    .filter((name) => (BUILT_PAGES as readonly string[]).includes(name))
    .sort();

/** A route of the table this role may not open. */
const deniedRoute = (role: Role) => ROUTES.find((r) => r.access !== 'public' && r.access && !canAccessRoute(r, role))!;

describe.each(DEMO_ACCOUNTS.map((a) => [a.account, a.role] as const))('%s (%s)', (account, role) => {
  it('signs in, sees exactly its menu, gets 401 on a denied route, reads every language, logs out', async () => {
    const context = await suite.browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    const scriptErrors: string[] = [];
    page.on('pageerror', (e) => scriptErrors.push(e.message));
    try {
      await signIn(page, suite.server.url, account, secretOf(account));
      // The realtime link is up: its heartbeat answered with a key, kept as currentKey (spec section 9).
      await expect
        .poll(() => page.evaluate<string | null>("localStorage.getItem('currentKey')"), { timeout: 15_000 })
        .toMatch(/.{16,}/);

      expect(await menuRouteNames(page)).toEqual(expectedMenu(role, account));
      expect(await page.getByTestId('side-menu').getByTestId('menu-item-home').textContent()).toBe(
        routeLocales['zh-CN'].route.home,
      );

      const denied = deniedRoute(role);
      await page.goto(`${suite.server.url}${denied.path}`);
      await page.waitForURL(`${suite.server.url}/401`);
      await page.getByTestId('page-401').waitFor();

      await page.goto(`${suite.server.url}/home`);
      for (const [label, lang] of [
        ['繁體中文', 'zh-TW'],
        ['English', 'en-US'],
        ['简体中文', 'zh-CN'],
      ] as const) {
        await chooseLanguage(page, label);
        await expect.poll(() => page.getByTestId('menu-item-home').textContent()).toBe(routeLocales[lang].route.home);
      }

      expect(scriptErrors).toEqual([]);
      await logOut(page, suite.server.url);
      // The session is over: a page behind sign-in goes back to the login page.
      await page.goto(`${suite.server.url}/home`);
      await page.waitForURL(`${suite.server.url}/login`);
    } finally {
      await context.close();
    }
  });
});
