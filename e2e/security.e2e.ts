import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/console.js';
import { createDemoOrder } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 17's HTTP hardening as the browser enforces it: the console, the payer page and the API
 * documents work under the server's Content-Security-Policy (no violation reported), the session
 * cookie is out of the page's reach while exports still download with it, and no other site can
 * frame the console.
 */
const suite = consoleSuite();

/** Collects what the browser reports as blocked by the CSP, across the page's navigations. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

describe('the console under its security headers', () => {
  it('signs in and shows pages, with the token cookie HttpOnly and exports still downloading', async () => {
    const page = await suite.newPage();
    const violations = watchViolations(page);
    const base = suite.server.url;
    await signIn(page, base, 'admin', suite.secretOf('admin'));

    const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    expect(await page.evaluate<string>('document.cookie')).not.toContain('token=');

    for (const path of ['/order/list', '/merchants/list', '/uSDTFloating/list-admin']) {
      await page.goto(`${base}${path}`);
      await page.getByTestId('menu-toggle').waitFor();
      await page.locator('.ant-table').first().waitFor();
    }
    // An export is a GET the browser sends with the HttpOnly cookie alone.
    await page.goto(`${base}/order/list`);
    const href = await page.getByTestId('export-csv').getAttribute('href');
    expect(href).toBeTruthy();
    const csv = await page.evaluate(async (h) => {
      const res = await fetch(h, { credentials: 'include' });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    }, href!);
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    expect(csv.text.split('\n')[0]).toContain('orderCode');

    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('shows the payer page with its QR code', async () => {
    const order = await createDemoOrder(suite.server.url, { amount: '34567', subject: 'CSP' });
    const page = await suite.newPage();
    const violations = watchViolations(page);
    await page.goto(order.payUrl);
    await page.getByTestId('pay-qr').waitFor();
    await expect.poll(() => page.getByTestId('pay-amount').textContent()).toBe('345.67');
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('shows the API documents at /docs and the merchant guide', async () => {
    const page = await suite.newPage();
    const violations = watchViolations(page);
    await page.goto(`${suite.server.url}/docs`);
    await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
    // The merchant's guide beside it (rendered markdown with its own <style>).
    await page.goto(`${suite.server.url}/docs/merchant-api`);
    await page.locator('h1').first().waitFor();
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('cannot be framed by another site', async () => {
    const page = await suite.newPage();
    const violations = watchViolations(page);
    // Another origin (about:blank content) frames the sign-in page: the browser refuses to show it.
    await page.setContent(`<iframe id="framed" src="${suite.server.url}/login" width="600" height="400"></iframe>`);
    await expect.poll(() => violations.some((v) => v.includes('frame-ancestors')), { timeout: 15_000 }).toBe(true);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(await frame?.locator('#userName').count()).toBe(0);
    await page.context().close();
  });
});
