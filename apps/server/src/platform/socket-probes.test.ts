import { connect } from 'node:net';
import { Code, endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, startTestApp, type TestApp } from '../testing/harness.js';

/**
 * What an attacker or a broken client sends over a real socket, below what app.inject can make: broken
 * request lines and headers, oversized headers, bodies cut short, connections dropped mid-download.
 * Each gets an answer in the 4xx class or a closed connection, and the server keeps serving.
 */
let t: TestApp;
let port: number;
let merchant: Auth;

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
  merchant = await t.login('merchant1');
});
afterAll(() => t.close());

/** Sends raw bytes and answers the status of the first response line ('' when the server just closed). */
function raw(bytes: string | Buffer, opts: { endAfterWrite?: boolean; waitMs?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? '');
    };
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes, () => {
      if (opts.endAfterWrite) socket.end();
    });
    setTimeout(done, opts.waitMs ?? 3000);
  });
}

async function stillServing() {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(res.status).toBe(200);
  const info = await fetch(`http://127.0.0.1:${port}${endpoints.auth.getInfo.path}`, {
    method: 'POST',
    headers: { token: merchant.token!, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(((await info.json()) as { code: number }).code).toBe(Code.success);
}

describe('over a real socket', () => {
  it('a NUL in an export filter, sent as the browser would, is a 400 and the server lives on', async () => {
    const res = await fetch(`http://127.0.0.1:${port}${endpoints.orders.exportList.path}?mchOrderNo=%00`, {
      headers: { cookie: `token=${merchant.token}` },
    });
    expect(res.status).toBe(400);
    await stillServing();
  });

  it('broken request lines and headers are 4xx answers, not crashes', async () => {
    expect(await raw('GARBAGE\r\n\r\n')).toMatch(/^4\d\d$/);
    expect(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nBad\u0000Header: 1\r\n\r\n')).toMatch(/^4\d\d$/);
    expect(await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toBe('431');
    expect(
      await raw('POST /v1.0/user/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n'),
    ).toBe('400');
    expect(await raw('GET /v1.0/%%%zz HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^4\d\d$/);
    await stillServing();
  });

  it('bodies cut short and connections dropped midway leave the server serving', async () => {
    const cut = Array.from({ length: 20 }, () =>
      raw(
        'POST /v1.0/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"userName":"a',
        { endAfterWrite: true, waitMs: 500 },
      ),
    );
    const dropped = Array.from({ length: 10 }, async () => {
      const controller = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}${endpoints.orders.exportList.path}`, {
        headers: { cookie: `token=${merchant.token}` },
        signal: controller.signal,
      }).catch(() => null);
      controller.abort();
      await res?.body?.cancel().catch(() => undefined);
    });
    await Promise.all([...cut, ...dropped]);
    await stillServing();
  });
});
