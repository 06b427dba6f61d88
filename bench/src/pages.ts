/**
 * Page weight and speed of the console (issue 18 item 5), as a browser meets them: the real server
 * (in this process, PGlite in memory, the demo data, the built console) and the machine's Chromium.
 * For each page it reports the JavaScript transferred (encoded bytes over the wire, a fresh browser
 * cache) against its target, then the time from navigation to the order list's first row, with an
 * empty cache (cold) and on a reload (warm). Prints a Markdown table; exits 1 when a target is missed.
 *
 *   npm run bench:pages                      # builds the console first
 *   BENCH_NO_BUILD=1 npm run bench:pages     # measures apps/web/dist as it is
 *   BENCH_RUNS=5 npm run bench:pages         # the times are the median of BENCH_RUNS loads (3)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.js';
import { freshCode } from '../../e2e/support/codes.js';
import { createDemoOrder } from '../../e2e/support/merchant.js';
import { type RunningServer, startServer } from '../../e2e/support/server.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const KB = 1024;
/** Issue 18's targets: JavaScript over the wire per page, and the warm reload of the order list. */
const TARGET = { payer: 120 * KB, login: 300 * KB, list: 600 * KB, warmFirstRowMs: 1000 };
/** A row of data in the list's table (antd marks the placeholder row of an empty table otherwise). */
const FIRST_ROW = '.ant-table-tbody tr.ant-table-row';

interface Weight {
  page: string;
  scripts: number;
  /** Encoded (compressed) bytes of the JavaScript bodies, as received. */
  bytes: number;
  /** The content-encodings the scripts came with. */
  encodings: string;
  target: number;
}

/** Loads `url` in a fresh context (empty cache) until `ready` holds; counts the scripts it received. */
async function weigh(
  context: BrowserContext,
  name: string,
  url: string,
  ready: (page: Page) => Promise<unknown>,
  target: number,
): Promise<Weight> {
  const page = await context.newPage();
  const scripts: Array<Promise<{ bytes: number; encoding: string }>> = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        bytes: sizes.responseBodySize,
        encoding: response?.headers()['content-encoding'] ?? 'identity',
      })),
    );
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const got = await Promise.all(scripts);
  await page.close();
  return {
    page: name,
    scripts: got.length,
    bytes: got.reduce((sum, s) => sum + s.bytes, 0),
    encodings: [...new Set(got.map((s) => s.encoding))].join(', '),
    target,
  };
}

/** Milliseconds from navigation (or reload) to the first row of the list on screen. */
async function timeToFirstRow(page: Page, go: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await go();
  await page.locator(FIRST_ROW).first().waitFor({ timeout: 30_000 });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Signs admin in through the login page once and returns the signed-in storage (token and cookie). */
async function signedInState(browser: Browser, server: RunningServer) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const secret = server.seed.accounts.find((a) => a.account === 'admin')?.googleSecret;
  if (!secret) throw new Error('no seeded authenticator for admin');
  await page.goto(`${server.url}/login`);
  await page.locator('#userName').fill('admin');
  await page.locator('#password').fill('demo1234');
  await page.locator('#googleCode').fill(await freshCode(secret));
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${server.url}/home`);
  const state = await context.storageState();
  await context.close();
  return state;
}

async function main() {
  if (!process.env.BENCH_NO_BUILD) {
    execFileSync('npm', ['run', 'build', '-w', '@paydesk/web'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    // Orders for the list and the payer page (the demo history may still be on its way).
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await createDemoOrder(server.url, { amount: String(10_000 + i) }));
    const state = await signedInState(browser, server);
    const fresh = (signedIn: boolean) =>
      browser.newContext({ locale: 'en-US', ...(signedIn ? { storageState: state } : {}) });

    const weights: Weight[] = [];
    const measure = async (
      signedIn: boolean,
      ...args: Parameters<typeof weigh> extends [unknown, ...infer R] ? R : never
    ) => {
      const context = await fresh(signedIn);
      weights.push(await weigh(context, ...args));
      await context.close();
    };
    const phone = { width: 375, height: 740 };
    await measure(
      false,
      'payer page (/pay/<orderCode>)',
      orders[0]!.payUrl,
      (p) => p.setViewportSize(phone).then(() => p.getByTestId('pay-utr-input').waitFor()),
      TARGET.payer,
    );
    await measure(
      false,
      'login (/login)',
      `${server.url}/login`,
      (p) => p.locator('#googleCode').waitFor(),
      TARGET.login,
    );
    await measure(
      true,
      'order list (/order/list)',
      `${server.url}/order/list`,
      (p) => p.locator(FIRST_ROW).first().waitFor(),
      TARGET.list,
    );
    await measure(
      true,
      'merchant list (/merchants/list)',
      `${server.url}/merchants/list`,
      (p) => p.locator(FIRST_ROW).first().waitFor(),
      TARGET.list,
    );

    const cold: number[] = [];
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await fresh(true);
      const page = await context.newPage();
      cold.push(await timeToFirstRow(page, () => page.goto(`${server.url}/order/list`)));
      warm.push(await timeToFirstRow(page, () => page.reload()));
      await context.close();
    }

    const kb = (bytes: number) => (bytes / KB).toFixed(1);
    const lines = [
      '| page | scripts | JavaScript over the wire (KB) | encoding | target (KB) | met |',
      '| --- | --- | --- | --- | --- | --- |',
      ...weights.map(
        (w) =>
          `| ${w.page} | ${w.scripts} | ${kb(w.bytes)} | ${w.encodings} | ${kb(w.target)} | ${w.bytes <= w.target ? 'yes' : '**no**'} |`,
      ),
      '',
      `| order list, first row (median of ${RUNS}) | ms | target (ms) | met |`,
      '| --- | --- | --- | --- |',
      `| cold (empty cache) | ${median(cold).toFixed(0)} | — | — |`,
      `| warm (reload) | ${median(warm).toFixed(0)} | ${TARGET.warmFirstRowMs} | ${median(warm) <= TARGET.warmFirstRowMs ? 'yes' : '**no**'} |`,
    ];
    // Times depend on what else the machine runs: say how busy it was.
    const load = loadavg().map((l) => l.toFixed(1));
    lines.push('', `Machine: ${cpus().length} cores, load average ${load.join(', ')} (1, 5, 15 min) at the end.`);
    console.log(lines.join('\n'));
    const missed = weights.some((w) => w.bytes > w.target) || median(warm) > TARGET.warmFirstRowMs;
    process.exitCode = missed ? 1 : 0;
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
