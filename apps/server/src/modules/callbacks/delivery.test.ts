import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../testing/harness.js';
import { checkedLookup, isNeverCalled, isPrivateAddress, postForm } from './delivery.js';

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

describe('link-local and cloud metadata addresses: never, even with CALLBACK_PRIVATE_NETWORKS on', () => {
  /** A dns.lookup that answers these addresses for any name (as a rebinding name could). */
  const resolvingTo = (addresses: LookupAddress[]) =>
    ((_host: string, _options: unknown, callback: (error: Error | null, all: LookupAddress[]) => void) =>
      callback(null, addresses)) as unknown as typeof dnsLookup;
  const NEVER_TEXT = /^the address .+ is link-local or a cloud metadata service: callbacks never call it$/;

  it('knows link-local and the metadata services, in every form; loopback and private ranges are not among them', () => {
    for (const host of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '192.0.0.192',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      'metadata.google.internal',
      'METADATA.google.internal',
    ])
      expect([host, isNeverCalled(host)]).toEqual([host, true]);
    for (const host of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '192.168.1.1',
      'fd12:3456::1',
      '8.8.8.8',
      'localhost',
      'shop.example',
    ])
      expect([host, isNeverCalled(host)]).toEqual([host, false]);
  });

  it('refuses the metadata service, link-local and their other spellings before connecting, with private networks allowed', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://2852039166/latest/meta-data/', // 169.254.169.254 as one number
      'http://0xa9.0xfe.0xa9.0xfe/', // and in hex
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[fe80::1]:8080/notify',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata.google.internal./computeMetadata/v1/',
      'http://100.100.100.200/latest/meta-data/',
    ]) {
      const res = await postForm(url, 'a=1', 2000, { privateNetworks: true });
      expect(res, url).toMatchObject({ status: null, responseBody: null, succeeded: false });
      expect(res.error, url).toMatch(NEVER_TEXT);
    }
  });

  it('refuses a name that resolves to a metadata address (checked at connection, for both settings)', async () => {
    for (const privateNetworks of [true, false]) {
      const lookup = checkedLookup(privateNetworks, resolvingTo([{ address: '169.254.169.254', family: 4 }]));
      const error = await new Promise<Error | null>((resolve) =>
        lookup('rebinding.example', { all: false }, (e) => resolve(e)),
      );
      expect(error?.message).toBe(
        'the address 169.254.169.254 is link-local or a cloud metadata service: callbacks never call it',
      );
      expect((error as NodeJS.ErrnoException).code).toBe('EPRIVATE');
    }
    // With private networks allowed, a name resolving to loopback goes through (the demo's receivers).
    const demo = checkedLookup(true, resolvingTo([{ address: '127.0.0.1', family: 4 }]));
    const answer = await new Promise<[Error | null, unknown]>((resolve) =>
      demo('receiver.local', { all: false }, (e, address) => resolve([e, address])),
    );
    expect(answer).toEqual([null, '127.0.0.1']);
  });

  it('the order send test refuses 169.254.169.254 with CALLBACK_PRIVATE_NETWORKS on, and still reaches a loopback receiver', async () => {
    const t = await startTestApp({ config: { callbackPrivateNetworks: true } });
    try {
      const admin = await t.loginWithToken2('admin');
      const metadata = await t.call(
        endpoints.callbacks.sendTest,
        { url: 'http://169.254.169.254/latest/meta-data/' },
        admin,
      );
      expect(metadata.body.code, JSON.stringify(metadata.body)).toBe(200);
      expect(metadata.body.data).toMatchObject({
        succeeded: false,
        responseStatus: null,
        error: 'the address 169.254.169.254 is link-local or a cloud metadata service: callbacks never call it',
      });
      const before = received;
      const local = await t.call(endpoints.callbacks.sendTest, { url: `http://127.0.0.1:${port}/notify` }, admin);
      expect(local.body.data).toMatchObject({ succeeded: true, responseStatus: 200 });
      expect(received).toBe(before + 1);
    } finally {
      await t.close();
    }
  });
});
