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

  it('shows the product name and a ready API', async () => {
    await page.goto(server.url);
    expect(await page.textContent('h1')).toBe('PayDesk');
    await page.getByText(/^API ready \((pglite|postgres)\)$/).waitFor();
  });

  it('serves the console on any console path (history routing)', async () => {
    const res = await page.goto(`${server.url}/some/console/path`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('PayDesk');
    expect(await page.textContent('h1')).toBe('PayDesk');
    await page.getByText(/^API ready/).waitFor();
  });

  it('speaks Chinese to a browser that asks for zh-CN', async () => {
    const zh = await browser.newPage({ locale: 'zh-CN' });
    await zh.goto(server.url);
    await zh.getByText(/^服务就绪（(pglite|postgres)）$/).waitFor();
    await zh.close();
  });

  it('answers unknown API paths with the 404 envelope', async () => {
    const res = await page.request.get(`${server.url}/v1.0/nope`);
    expect(res.status()).toBe(404);
    const body = (await res.json()) as { code: number };
    expect(body.code).toBe(404);
  });
});
