import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints, MERCHANT_GUIDE_PATH } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('operations endpoints', () => {
  it('/healthz and /readyz answer the envelope; readyz names the database', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toMatchObject({ code: 200 });
    const ready = (await t.app.inject({ url: '/readyz' })).json();
    expect(ready).toMatchObject({ code: 200, data: { database: t.database.kind } });
  });

  it('/readyz answers 503 in time when the database does not answer, instead of hanging with it', async () => {
    const ping = t.database.ping;
    t.database.ping = () => new Promise<void>(() => undefined);
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ msg: 'database not answering' });
    } finally {
      t.database.ping = ping;
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('/metrics counts requests by route pattern and status, with latencies', async () => {
    await t.call(endpoints.auth.getInfo);
    const text = (await t.app.inject({ url: '/metrics' })).body;
    expect(text).toMatch(/paydesk_http_requests_total\{method="POST",route="\/v1.0\/user\/getInfo",status="401"\} 1/);
    expect(text).toMatch(
      /paydesk_http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/v1.0\/user\/getInfo"\}/,
    );
  });

  it('/docs serves the API documentation, which declares the token headers', async () => {
    expect((await t.app.inject({ url: '/docs/' })).statusCode).toBe(200);
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(doc.components.securitySchemes).toHaveProperty('token2');
    expect(doc.paths['/v1.0/user/login'].post.security).toEqual([]);
  });

  it('/docs/merchant-api serves the merchant integration guide as a page, without signing in', async () => {
    const res = await t.app.inject({ url: MERCHANT_GUIDE_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Merchant API: collecting payments and paying out with PayDesk</h1>');
    // Code blocks and tables are rendered, not left as Markdown.
    expect(res.body).toMatch(/<pre><code[^>]*>/);
    expect(res.body).toContain('<table>');
    expect(res.body).not.toContain('```');
  });

  it('ApiUrl: the guide calls the API address merchants are shown, else the address it was reached by', async () => {
    const apiAddressRow = (body: string) => /<td>The API address<\/td>\s*<td>(.*?)<\/td>/.exec(body)?.[1];
    const own = await t.app.inject({ url: MERCHANT_GUIDE_PATH, headers: { host: 'console.example.test:8443' } });
    expect(apiAddressRow(own.body)).toBe('<code>http://console.example.test:8443</code>');
    expect(own.body).toContain('API=http://console.example.test:8443');
    expect(own.body).not.toContain('pay.example.com');
    const merchant = await t.login('merchant1');
    expect((await t.call(endpoints.auth.getInfo, undefined, merchant)).body.data.apiUrl).toBe('');

    await t.setSetting('ApiUrl', 'https://api.paydesk.example/');
    try {
      const set = await t.app.inject({ url: MERCHANT_GUIDE_PATH, headers: { host: 'console.example.test:8443' } });
      expect(apiAddressRow(set.body)).toBe('<code>https://api.paydesk.example</code>');
      // Every example calls it: the shell, Node, Python and PHP ones and the answer's payer page.
      expect(set.body).toContain('API=https://api.paydesk.example');
      expect(set.body).toContain('const API = &#39;https://api.paydesk.example&#39;;');
      expect(set.body).toContain('https://api.paydesk.example/pay/C26112312000012345678');
      expect(set.body).not.toMatch(/pay\.example\.com|console\.example\.test/);
      // The console shows merchants the same address (API credentials card, API test page).
      expect((await t.call(endpoints.auth.getInfo, undefined, merchant)).body.data.apiUrl).toBe(
        'https://api.paydesk.example/',
      );
    } finally {
      await t.setSetting('ApiUrl', undefined);
    }
    // A Host no base address may carry is not written into the page.
    const odd = await t.app.inject({ url: MERCHANT_GUIDE_PATH, headers: { host: 'bad"host' } });
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('bad"host');
  });

  it('never answers 500 to an unexpected request shape on an unknown path', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1.0/admin/getUserList', payload: 'x' });
    expect(res.statusCode).toBe(404);
  });
});

describe('the built console', () => {
  it('serves its files and index.html for console paths, and a rebuild without a restart', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'paydesk-web-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<script src="/assets/a.js"></script>');
    await writeFile(join(dist, 'assets', 'a.js'), 'console.log("a")');
    const web = await startTestApp({ config: { webDist: dist } });
    try {
      const get = (url: string) => web.app.inject({ url });
      expect((await get('/assets/a.js')).body).toBe('console.log("a")');
      expect((await get('/order/list')).body).toBe('<script src="/assets/a.js"></script>');
      const home = await get('/');
      expect(home.statusCode).toBe(200);
      expect(home.body).toBe('<script src="/assets/a.js"></script>');

      // Rebuilt while running: new chunk names, a new index.html.
      await writeFile(join(dist, 'index.html'), '<script src="/assets/b.js"></script>');
      await writeFile(join(dist, 'assets', 'b.js'), 'console.log("b")');
      const chunk = await get('/assets/b.js');
      expect(chunk.statusCode).toBe(200);
      expect(chunk.headers['content-type']).toContain('javascript');
      expect(chunk.body).toBe('console.log("b")');
      expect((await get('/order/list/supplier')).body).toBe('<script src="/assets/b.js"></script>');

      // A chunk that is not there is a 404, not the page; unknown API paths keep their envelope.
      const missing = await get('/assets/gone.js');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 404 });
      expect((await get('/assets/')).json()).toMatchObject({ code: 404 });
      expect((await get('/v1.0/nothing')).json()).toMatchObject({ code: 404 });
    } finally {
      await web.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
