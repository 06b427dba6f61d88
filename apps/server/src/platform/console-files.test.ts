import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Code } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/harness.js';

/**
 * How the built console reaches a browser (issue 18, speed): compressed when the browser accepts it,
 * hashed files cached for a year, the HTML revalidated on every visit, the payer page its own HTML.
 */
const SCRIPT = `console.log(${JSON.stringify('a console chunk '.repeat(200))});`;
const CONSOLE_HTML = '<!doctype html><html><head><title>PayDesk console</title></head><body></body></html>';
const PAYER_HTML = '<!doctype html><html><head><title>PayDesk payment</title></head><body></body></html>';

let app: TestApp;
let webDist: string;

function writeCompressed(path: string, text: string) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text));
}

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'paydesk-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeCompressed(join(webDist, 'index.html'), CONSOLE_HTML);
  writeCompressed(join(webDist, 'pay.html'), PAYER_HTML);
  writeCompressed(join(webDist, 'assets', 'index-B3x9Qa1z.js'), SCRIPT);
  // A file the build left uncompressed (too small to gain): sent as it is.
  writeFileSync(join(webDist, 'assets', 'tiny-Cq81Lr0P.js'), 'export{};');
  writeFileSync(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  app = await startTestApp({ config: { webDist } });
}, 60_000);
afterAll(async () => {
  await app?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('console files', () => {
  it('sends a script brotli-compressed, else gzip, else plain, by what the browser accepts', async () => {
    const br = await get('/assets/index-B3x9Qa1z.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/index-B3x9Qa1z.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-B3x9Qa1z.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    const uncompressed = await get('/assets/tiny-Cq81Lr0P.js', 'br');
    expect(uncompressed.statusCode).toBe(200);
    expect(uncompressed.headers['content-encoding']).toBeUndefined();
    expect(uncompressed.body).toBe('export{};');
  });

  it('caches hashed files for a year and makes the browser revalidate the HTML and other files', async () => {
    for (const encoding of ['br', undefined]) {
      const script = await get('/assets/index-B3x9Qa1z.js', encoding);
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    for (const url of ['/', '/order/list', '/pay/C20260101000001', '/index.html', '/favicon.svg']) {
      const answer = await get(url, 'br');
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers console paths with the console and the payer page with its own HTML, compressed', async () => {
    const console = await get('/order/list', 'br');
    expect(console.headers['content-type']).toContain('text/html');
    expect(console.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(console.rawPayload).toString()).toBe(CONSOLE_HTML);

    const payer = await get('/pay/C20260101000001');
    expect(payer.headers['content-type']).toContain('text/html');
    expect(payer.body).toBe(PAYER_HTML);
  });

  it('sends the payer page for both its addresses (IsNewPayUrl), and the console for paths that only begin alike', async () => {
    for (const url of ['/pay/C20260101000001', '/pay?orderCode=C20260101000001', '/pay/?orderCode=C20260101000001']) {
      const payer = await get(url);
      expect(payer.statusCode, url).toBe(200);
      expect(payer.body, url).toBe(PAYER_HTML);
    }
    // A console page whose path starts with "/pay" is not the payer page.
    const console = await get('/payProxyOrder/list/supplier?tab=queue');
    expect(console.body).toBe(CONSOLE_HTML);
  });

  it('a missing hashed file is a 404 envelope, not the console HTML (a page of an older build)', async () => {
    const missing = await get('/assets/index-OLDHASH1.js', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: Code.notFound });
    expect(String(missing.headers['cache-control'] ?? '')).not.toContain('immutable');
  });
});
