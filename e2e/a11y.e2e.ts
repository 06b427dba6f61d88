import AxeBuilder from '@axe-core/playwright';
import { endpoints, isStaff, ROUTES, type Role } from '@paydesk/contract';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../apps/server/src/seed/seed.js';
import { apiCall, apiLogin } from './support/api.js';
import { menuRouteNames, signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

/**
 * Accessibility (issue 18): axe-core on every page of every role's menu, on the login and the
 * authenticator binding pages, and on a few pages at a phone's width (each page once per audience:
 * see `checked`). A page passes with no critical
 * and no serious violation, one h1 and one main landmark.
 */
const suite = consoleSuite();

const PHONE = { width: 360, height: 740 };

/** One line per failing rule and element, so a failure says what to fix and where. */
function describeViolations(where: string, violations: Result[]): string[] {
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${where}: [${v.impact}] ${v.id} (${v.help}) at ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, '\n    ') ?? ''}`,
      ),
    );
}

/** Waits until the page has its heading and no list or form is still loading. */
async function settled(page: Page) {
  await page.locator('main h1').first().waitFor();
  await expect
    .poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active, .page-loading').count(), { timeout: 15_000 })
    .toBe(0);
  // Nothing moving: axe reads the colours as they are, and a transition caught halfway (a menu
  // item's background fading in as the drawer opens) is a contrast the page does not have a moment
  // later. Endless animations (a spinner, a live badge) are not waited for.
  // A function, not a string: the console's CSP forbids evaluating strings in the page. This package
  // is compiled without the DOM's types, hence the document's shape written here.
  await page.waitForFunction(() => {
    type Moving = { playState: string; effect: { getTiming(): { iterations?: number } } | null };
    const { document } = globalThis as unknown as { document: { getAnimations(): Moving[] } };
    return document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY);
  });
}

/**
 * What axe and the landmark checks find wrong on the page as it is now; empty when it passes.
 * `skipMenu`: leave out the side menu, the same on every page of a role and checked on its first
 * (every menu item is in the page, so it is the largest part of axe's work).
 */
async function check(page: Page, where: string, skipMenu = false): Promise<string[]> {
  await settled(page);
  const problems: string[] = [];
  const h1 = await page.locator('h1').count();
  const main = await page.locator('main, [role=main]').count();
  if (h1 !== 1) problems.push(`${where}: ${h1} h1 headings, want 1`);
  if (main !== 1) problems.push(`${where}: ${main} main landmarks, want 1`);
  const axe = new AxeBuilder({ page });
  if (skipMenu) axe.exclude('[data-testid=side-menu]');
  const { violations } = await axe.analyze();
  return [...problems, ...describeViolations(where, violations)];
}

/** Opens a page of the console without reloading it (the router follows history), as a menu click does. */
async function openInApp(page: Page, path: string) {
  // A string: the e2e project is type-checked without the DOM's types.
  await page.evaluate(
    `window.history.pushState({}, '', ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent('popstate'));`,
  );
  await page.waitForURL(`${suite.server.url}${path}`);
}

const pathOf = (name: string) => {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route.path;
};

describe('accessibility', () => {
  it('the login and authenticator binding pages, wide and on a phone', async () => {
    const admin = await apiLogin(suite.server.url, 'admin', suite.secretOf('admin'));
    const added = await apiCall(
      suite.server.url,
      endpoints.users.addUser,
      { nickname: 'A11y check', account: 'a11y1', password: 'a11y2024', access: 'customerService' },
      admin,
    );
    expect(added.code).toBe(200);
    const problems: string[] = [];
    for (const [viewport, label] of [
      [{ width: 1366, height: 768 }, 'wide'],
      [PHONE, 'phone'],
    ] as const) {
      const context = await suite.browser.newContext({ locale: 'zh-CN', viewport });
      const page = await context.newPage();
      try {
        await page.goto(`${suite.server.url}/login`);
        problems.push(...(await check(page, `login (${label})`)));
        await page.locator('#userName').fill('a11y1');
        await page.locator('#password').fill('a11y2024');
        await page.locator('button[type=submit]').click();
        await page.waitForURL(`${suite.server.url}/googleVerify`);
        await page.getByTestId('google-secret').waitFor();
        problems.push(...(await check(page, `googleVerify (${label})`)));
      } finally {
        await context.close();
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  /**
   * Pages already checked, by audience and route. Staff roles share their pages' components and
   * differ in which pages their menus hold, so a page one staff role passed is not checked again for
   * the next (each role's menu is still checked on its first page); a supplier, an agent and a
   * merchant see their own versions of a page and check each of theirs.
   */
  const checked = new Set<string>();
  const audienceOf = (account: string, role: Role) => (isStaff(role) ? 'staff' : account);
  /**
   * A page and its variants draw the same component: the read-only twin (technical maintenance) and the
   * customer service variant show a subset of the page's controls, so one of them is checked per
   * audience (the a11y run grew past 7 minutes checking each of ~30 twins again).
   */
  const pageOf = (name: string) => name.replace(/(ReadOnly|CustomerService)$/, '');

  describe.each(DEMO_ACCOUNTS.map((a) => [a.account, a.role] as const))('%s (%s)', (account, role) => {
    it('every page of its menu', async () => {
      const context = await suite.browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      try {
        await signIn(page, suite.server.url, account, suite.secretOf(account));
        const names = await menuRouteNames(page);
        expect(names.length).toBeGreaterThan(0);
        const problems: string[] = [];
        for (const name of names) {
          const key = `${audienceOf(account, role)} ${pageOf(name)}`;
          if (name !== names[0] && checked.has(key)) continue;
          checked.add(key);
          const started = Date.now();
          await openInApp(page, pathOf(name));
          problems.push(...(await check(page, `${account} ${name}`, name !== names[0])));
          if (process.env.A11Y_TIMES) console.log(`${account} ${name}: ${Date.now() - started} ms`);
        }
        expect(problems, problems.join('\n')).toEqual([]);
      } finally {
        await context.close();
      }
    }, 600_000);
  });

  it('a few pages at a phone width (360 px)', async () => {
    const context = await suite.browser.newContext({ locale: 'zh-CN', viewport: PHONE, isMobile: true });
    const page = await context.newPage();
    try {
      await signIn(page, suite.server.url, 'admin', suite.secretOf('admin'));
      const problems: string[] = [];
      for (const name of [
        'home',
        'orderList',
        'merchantList',
        'messagePage',
        'systemConfig',
        'telegramBotGroup',
        'messageTemplate',
        'payGatewayConfig',
        'orderClearHistory',
        'systemMaintenance',
        'transferBot',
        'todoList',
        'financeFundFlow',
      ]) {
        await openInApp(page, pathOf(name));
        problems.push(...(await check(page, `phone ${name}`)));
      }
      // The menu drawer, open.
      await page.getByTestId('menu-toggle').click();
      await page.locator('.shell-drawer .ant-menu-root').waitFor();
      problems.push(...(await check(page, 'phone menu drawer')));
      expect(problems, problems.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
