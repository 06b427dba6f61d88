import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { type RunningServer, startServer } from './server.js';

export interface ConsoleSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The authenticator secret of a seeded demo account. */
  secretOf(account: string): string;
  /** A page in a fresh browser context (its own cookies and storage) speaking `locale`. */
  newPage(locale?: string): Promise<Page>;
}

/** One real server with the demo data and one Chromium for the suite; both closed after it. */
export function consoleSuite(options: { jobs?: boolean } = {}): ConsoleSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const ready = <T>(v: T | undefined, what: string): T => {
    if (!v) throw new Error(`${what} is not started yet (use it inside a test)`);
    return v;
  };
  return {
    get server() {
      return ready(server, 'the server');
    },
    get browser() {
      return ready(browser, 'the browser');
    },
    secretOf(account) {
      const secret = ready(server, 'the server').seed.accounts.find((a) => a.account === account)?.googleSecret;
      if (!secret) throw new Error(`no seeded authenticator for ${account}`);
      return secret;
    },
    async newPage(locale = 'en-US') {
      const context = await ready(browser, 'the browser').newContext({ locale });
      return context.newPage();
    },
  };
}
