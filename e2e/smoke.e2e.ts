import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

describe('console smoke', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ locale: 'en-US' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a visitor without a session to the sign-in page, in the browser’s language', async () => {
    await page.goto(server.url);
    await page.waitForURL(`${server.url}/login`);
    expect(await page.locator('.login-title').textContent()).toBe('PayDesk · Sign in');
    const zh = await browser.newPage({ locale: 'zh-CN' });
    await zh.goto(`${server.url}/login`);
    expect(await zh.locator('.login-title').textContent()).toBe('PayDesk · 登录');
    await zh.close();
  });

  it('serves the console on every console path (history routing)', async () => {
    const res = await page.goto(`${server.url}/merchants/list`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('PayDesk');
  });

  it('answers unknown API paths with the 404 envelope', async () => {
    const res = await page.request.get(`${server.url}/v1.0/nope`);
    expect(res.status()).toBe(404);
    expect(((await res.json()) as { code: number }).code).toBe(404);
  });

  it('shows a clear error for a wrong password and stays on sign-in', async () => {
    await page.goto(`${server.url}/login`);
    await page.locator('#userName').fill('admin');
    await page.locator('#password').fill('wrong-password1');
    await page.locator('#googleCode').fill('123456');
    await page.locator('button[type=submit]').click();
    await page.getByText('Sign-in failed: account or password is incorrect').waitFor();
    expect(page.url()).toBe(`${server.url}/login`);
  });
});
