import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextIp, startTestApp, type TestApp } from '../testing/harness.js';

/**
 * HTTP hardening as a browser or an attacker meets it (issue 17): security headers on every kind of
 * answer, the session cookie's flags over http and https, /metrics closed to the network, the global
 * per-address limit, and 413 for oversized bodies.
 *
 * `proxied` runs behind a TLS proxy (TRUST_PROXY) with a small global limit (40 a minute scaled by
 * rateLimitFactor 0.5: 20) and a built console in a temporary folder; `direct` trusts no proxy and
 * has the global limit off (0).
 */
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const GLOBAL_MAX = 20;
let proxied: TestApp;
let direct: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'paydesk-web-'));
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><head><title>PayDesk</title></head><body></body></html>',
  );
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log("console");');
  proxied = await startTestApp({
    config: { webDist, trustProxy: 1, globalRateLimit: 40, rateLimitFactor: 0.5, metricsToken: METRICS_TOKEN },
  });
  direct = await startTestApp({ config: { globalRateLimit: 0 } });
}, 60_000);
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
  rmSync(webDist, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  expect(csp).toContain("connect-src 'self' ws: wss:");
  expect(csp).toContain("img-src 'self' data:");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain('upgrade-insecure-requests');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('security headers', () => {
  it('are on API answers, success and refusal alike, without HSTS over plain http', async () => {
    const ip = nextIp();
    const health = await proxied.app.inject({ url: '/healthz', remoteAddress: ip });
    expect(health.statusCode).toBe(200);
    expectSecurityHeaders(health.headers);
    expect(health.headers['strict-transport-security']).toBeUndefined();

    const refused = await proxied.call(endpoints.auth.getInfo, undefined, { ip });
    expect(refused.body.code).toBe(Code.sessionExpired);
    expectSecurityHeaders(refused.headers);
  });

  it('are on the console, the payer page and the console files', async () => {
    const ip = nextIp();
    const index = await proxied.app.inject({ url: '/', remoteAddress: ip });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    expectSecurityHeaders(index.headers);

    const payer = await proxied.app.inject({ url: '/pay/C20260101000001', remoteAddress: ip });
    expect(payer.statusCode).toBe(200);
    expect(payer.body).toContain('<title>PayDesk</title>');
    expectSecurityHeaders(payer.headers);

    const script = await proxied.app.inject({ url: '/assets/app.js', remoteAddress: ip });
    expect(script.statusCode).toBe(200);
    expectSecurityHeaders(script.headers);
  });

  it('are on the API documents, which stay public', async () => {
    const ip = nextIp();
    const ui = await proxied.app.inject({ url: '/docs/', remoteAddress: ip });
    expect(ui.statusCode).toBe(200);
    expectSecurityHeaders(ui.headers);
    const spec = await proxied.app.inject({ url: '/docs/json', remoteAddress: ip });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().paths[endpoints.orders.create.path]).toBeDefined();
  });

  it('add HSTS when the request came over https through a trusted proxy, and only then', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
    const overTls = await proxied.app.inject({ url: '/healthz', headers: https, remoteAddress: '127.0.0.1' });
    expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Without TRUST_PROXY the header is anyone's claim: no HSTS from it.
    const claimed = await direct.app.inject({ url: '/healthz', headers: https });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    expectSecurityHeaders(claimed.headers);
  });
});

describe('the session cookie', () => {
  async function loginCookie(t: TestApp, headers: Record<string, string>) {
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.auth.login.path,
      remoteAddress: nextIp(),
      headers,
      payload: { userName: 'admin', password: 'demo1234', googleCode: t.code('admin') },
    });
    expect(res.json().code, res.body).toBe(Code.success);
    const cookie = res.cookies.find((c) => c.name === 'token');
    expect(cookie?.value).toBe(res.json().data.token);
    return cookie!;
  }

  it('is HttpOnly and SameSite=Strict, not Secure over plain http', async () => {
    const cookie = await loginCookie(proxied, {});
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(cookie.secure).toBeFalsy();
    expect(cookie.path).toBe('/');
    expect(cookie.maxAge).toBe(24 * 60 * 60);
  });

  it('is Secure when the request came over https through a trusted proxy', async () => {
    const cookie = await loginCookie(proxied, { 'x-forwarded-proto': 'https' });
    expect(cookie.secure).toBe(true);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
  });

  it('is not Secure on an untrusted claim of https (no TRUST_PROXY)', async () => {
    const cookie = await loginCookie(direct, { 'x-forwarded-proto': 'https' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.httpOnly).toBe(true);
  });

  it('still authenticates a GET download, and logout clears it', async () => {
    const cookie = await loginCookie(proxied, {});
    const download = await proxied.app.inject({
      url: endpoints.auth.exportSessions.path,
      remoteAddress: nextIp(),
      cookies: { token: cookie.value },
    });
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    expect(download.headers['content-type']).toContain('text/csv');
    // A POST never authenticates by the cookie alone (a forged form carries no header).
    const forged = await proxied.app.inject({
      method: 'POST',
      url: endpoints.auth.logout.path,
      remoteAddress: nextIp(),
      cookies: { token: cookie.value },
    });
    expect(forged.json().code).toBe(Code.sessionExpired);
    // Nor a GET that is not an export: an image tag on another site could make the browser send the
    // spec's GET calls that change things (deleteUser, resetPayPassword) with the cookie.
    const sneaky = await proxied.app.inject({
      url: `${endpoints.users.deleteUser.path}?id=999999`,
      remoteAddress: nextIp(),
      cookies: { token: cookie.value },
    });
    expect(sneaky.json().code).toBe(Code.sessionExpired);
    const out = await proxied.app.inject({
      method: 'POST',
      url: endpoints.auth.logout.path,
      remoteAddress: nextIp(),
      headers: { token: cookie.value },
    });
    expect(out.json().code).toBe(Code.success);
    const cleared = out.cookies.find((c) => c.name === 'token');
    expect(cleared?.value).toBe('');
    expect(cleared?.httpOnly).toBe(true);
  });
});

describe('/metrics', () => {
  it('is refused (404, as an unknown path) from another address without the token, or with a wrong one', async () => {
    const outside = await proxied.app.inject({ url: '/metrics', remoteAddress: '198.51.100.20' });
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toMatchObject({ code: Code.notFound });
    expect(outside.body).not.toContain('paydesk_http_requests_total');
    const wrong = await proxied.app.inject({
      url: '/metrics',
      remoteAddress: '198.51.100.20',
      headers: { authorization: 'Bearer not-the-metrics-token-000000' },
    });
    expect(wrong.statusCode).toBe(404);
    // Through a proxy on this machine the socket is loopback, but the caller is not.
    const forwarded = await proxied.app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.20' },
    });
    expect(forwarded.statusCode).toBe(404);
  });

  it('is served with the token from anywhere, and directly from the machine itself', async () => {
    const withToken = await proxied.app.inject({
      url: '/metrics',
      remoteAddress: '198.51.100.21',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain('paydesk_http_requests_total');
    const local = await direct.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    expect(local.body).toContain('paydesk_http_requests_total');
  });
});

describe('the global per-address limit', () => {
  it('answers 429 with the envelope past its max, on any path, for that address only', async () => {
    const flooder = nextIp();
    for (let i = 0; i < GLOBAL_MAX; i += 1) {
      // Unknown paths count as much as real ones: a scanner meets the limit too.
      const url = i % 2 === 0 ? '/healthz' : `/v1.0/nothing-${i}`;
      const res = await proxied.app.inject({ url, remoteAddress: flooder });
      expect(res.statusCode, `request ${i + 1}`).not.toBe(429);
    }
    const over = await proxied.app.inject({ url: '/healthz', remoteAddress: flooder });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: Code.tooManyRequests, msg: expect.any(String), data: null });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expectSecurityHeaders(over.headers);
    const console = await proxied.app.inject({ url: '/', remoteAddress: flooder });
    expect(console.statusCode).toBe(429);

    const other = await proxied.app.inject({ url: '/healthz', remoteAddress: nextIp() });
    expect(other.statusCode).toBe(200);
  });

  it('counts the client behind a trusted proxy, not the proxy', async () => {
    const client = nextIp();
    for (let i = 0; i < GLOBAL_MAX; i += 1) {
      await proxied.app.inject({ url: '/healthz', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
    }
    const over = await proxied.app.inject({
      url: '/healthz',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': client },
    });
    expect(over.statusCode).toBe(429);
    const neighbour = await proxied.app.inject({
      url: '/healthz',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': nextIp() },
    });
    expect(neighbour.statusCode).toBe(200);
  });

  it('cannot be dodged by writing a first X-Forwarded-For entry: the proxy’s own entry is the address', async () => {
    const client = nextIp();
    // Each request claims another first address; the proxy appended the real one last.
    const spoofed = () => `${nextIp()}, ${client}`;
    for (let i = 0; i < GLOBAL_MAX; i += 1) {
      await proxied.app.inject({
        url: '/healthz',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': spoofed() },
      });
    }
    const over = await proxied.app.inject({
      url: '/healthz',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': `198.51.100.1, ${client}` },
    });
    expect(over.statusCode).toBe(429);
  });

  it('keeps the endpoints’ own limits in force beneath it', async () => {
    // login: 20 a minute in the contract, times 0.5 here: the 11th try is refused while the
    // address is still far from the global 20.
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await proxied.call(
        endpoints.auth.login,
        { userName: 'nobody-here', password: 'wrong-password', googleCode: '000000' },
        { ip },
      );
      codes.push(res.body.code);
    }
    expect(codes.slice(0, 10).every((c) => c !== Code.tooManyRequests)).toBe(true);
    expect(codes[10]).toBe(Code.tooManyRequests);
  });

  it('is off at 0', async () => {
    const ip = nextIp();
    for (let i = 0; i < 3 * GLOBAL_MAX; i += 1) {
      const res = await direct.app.inject({ url: '/healthz', remoteAddress: ip });
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
    }
  });
});

describe('request bodies over the limit', () => {
  it('answer HTTP 413 with the envelope, and sign nobody in', async () => {
    const res = await direct.app.inject({
      method: 'POST',
      url: endpoints.auth.login.path,
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ userName: 'admin', password: 'x'.repeat(1_100_000), googleCode: '000000' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: Code.invalidInput, msg: 'request body is too large' });
    expect(res.cookies.find((c) => c.name === 'token')).toBeUndefined();
  });
});
