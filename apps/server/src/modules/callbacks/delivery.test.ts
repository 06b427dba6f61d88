import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../testing/harness.js';
import { isPrivateAddress, postForm } from './delivery.js';

/** A merchant's receiver on this machine's loopback, answering SUCCESS and counting what reached it. */
let server: Server;
let port: number;
let received = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => res.end('SUCCESS'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('private networks (SSRF)', () => {
  it('knows the private and reserved ranges of IPv4 and IPv6, mapped addresses included', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('refuses a loopback address, literal or behind a name, before connecting; nothing reaches the receiver', async () => {
    const before = received;
    const literal = await postForm(`http://127.0.0.1:${port}/notify`, 'a=1', 2000, { privateNetworks: false });
    expect(literal).toMatchObject({ status: null, succeeded: false });
    expect(literal.error).toBe(
      'the address 127.0.0.1 is in a private network: callbacks may not call it (CALLBACK_PRIVATE_NETWORKS)',
    );
    const named = await postForm(`http://localhost:${port}/notify`, 'a=1', 2000, { privateNetworks: false });
    expect(named).toMatchObject({ status: null, succeeded: false });
    expect(named.error).toMatch(/^EPRIVATE: the address (127\.0\.0\.1|::1) is in a private network/);
    const v6 = await postForm(`http://[::1]:${port}/notify`, 'a=1', 2000, { privateNetworks: false });
    expect(v6.error).toMatch(/the address ::1 is in a private network/);
    // The URL parser writes a mapped address in hex: [::ffff:7f00:1].
    const mapped = await postForm(`http://[::ffff:127.0.0.1]:${port}/notify`, 'a=1', 2000, { privateNetworks: false });
    expect(mapped.error).toMatch(/the address ::ffff:7f00:1 is in a private network/);
    expect(received).toBe(before);
  });

  it('delivers to the same receiver when private networks are allowed (the demo, the tests)', async () => {
    const before = received;
    const allowed = await postForm(`http://localhost:${port}/notify`, 'a=1', 2000, { privateNetworks: true });
    expect(allowed).toMatchObject({ status: 200, succeeded: true, error: null, responseBody: 'SUCCESS' });
    expect(received).toBe(before + 1);
  });

  it('with CALLBACK_PRIVATE_NETWORKS off, staff cannot aim the order send test at the server’s own network', async () => {
    const t = await startTestApp({ config: { callbackPrivateNetworks: false } });
    try {
      const admin = await t.loginWithToken2('admin');
      const before = received;
      const res = await t.call(endpoints.callbacks.sendTest, { url: `http://127.0.0.1:${port}/notify` }, admin);
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({
        succeeded: false,
        responseStatus: null,
        error: 'the address 127.0.0.1 is in a private network: callbacks may not call it (CALLBACK_PRIVATE_NETWORKS)',
      });
      expect(received).toBe(before);
    } finally {
      await t.close();
    }
  });
});
