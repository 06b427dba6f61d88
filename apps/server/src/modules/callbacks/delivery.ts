import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { CALLBACK_RESPONSE_LIMIT } from '@paydesk/contract';
import { Agent, fetch, type Response } from 'undici';

/** What one POST of a callback sent and got back. */
export interface Exchange {
  status: number | null;
  /** The answer, at most CALLBACK_RESPONSE_LIMIT bytes of it. */
  responseBody: string | null;
  /** Why it does not count as delivered (null when it does). */
  error: string | null;
  durationMs: number;
  /** HTTP 2xx and the body SUCCESS, trimmed, in any case. */
  succeeded: boolean;
}

/** More than this is not a SUCCESS answer: reading stops here. */
const READ_LIMIT = 64 * 1024;

/**
 * The URL's host as an address or name (IPv6 without brackets, a name without its final dot), or
 * null when it does not parse. The URL parser writes every IPv4 form in dots (http://2852039166/ is
 * 169.254.169.254).
 */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  } catch {
    return null;
  }
}

async function readUpTo(res: Response, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), complete: true };
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), complete: true };
    chunks.push(Buffer.from(value));
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), complete: false };
    }
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = e?.cause;
  // fetch refuses the ports of the 'bad ports' list (25, 110, ...) before connecting.
  if (cause?.message === 'bad port') return 'this port may not be called (bad port)';
  if (cause?.message)
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return e?.message ?? String(error);
}

/**
 * Addresses a merchant's notify URL may not reach unless private networks are allowed: loopback,
 * the private ranges, link-local (cloud metadata lives there), carrier-grade NAT, unspecified,
 * multicast and reserved, in IPv4 and IPv6. Otherwise a merchant could make the server call the
 * platform's own internal services (SSRF).
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/**
 * Addresses no callback and no send test ever reaches, whatever CALLBACK_PRIVATE_NETWORKS says:
 * link-local, where cloud metadata services answer with the instance's credentials, and the metadata
 * services' addresses outside it. The demo's receivers are on loopback, never here.
 */
const NEVER = new BlockList();
// Link-local; 169.254.169.254 is the metadata service of AWS, GCP, Azure, DigitalOcean, OpenStack.
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud's metadata service
NEVER.addAddress('192.0.0.192', 'ipv4'); // Oracle Cloud's metadata service
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6'); // AWS's metadata service over IPv6
NEVER.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6'); // 169.254.0.0/16 through NAT64
/** Names of metadata services (they resolve to the addresses above, which are checked too). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

/**
 * Whether `address` (an IP literal) is in a private or reserved range. IPv4-mapped IPv6 addresses
 * (::ffff:127.0.0.1, ::ffff:7f00:1) are checked against the IPv4 ranges by BlockList itself.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether `host` (an IP literal or a name) is link-local or a cloud metadata service: never called. */
export function isNeverCalled(host: string): boolean {
  const family = isIP(host);
  if (family === 0) return METADATA_NAMES.has(host.toLowerCase());
  return NEVER.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

const refusal = (address: string) =>
  `the address ${address} is in a private network: callbacks may not call it (CALLBACK_PRIVATE_NETWORKS)`;
const neverRefusal = (host: string) =>
  `the address ${host} is link-local or a cloud metadata service: callbacks never call it`;

/** Why `host` may not be called, or null when it may. */
export function hostRefusal(host: string, privateNetworks: boolean): string | null {
  if (isNeverCalled(host)) return neverRefusal(host);
  if (!privateNetworks && isPrivateAddress(host)) return refusal(host);
  return null;
}

type Lookup = typeof dnsLookup;

/**
 * A connection's name lookup that checks every address the name resolves to (hostRefusal) and hands
 * the connection only the addresses checked: a name that resolves differently a second time cannot
 * slip through. `resolve` is dns.lookup but in tests.
 */
export function checkedLookup(privateNetworks: boolean, resolve: Lookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const a of addresses) {
        const why = hostRefusal(a.address, privateNetworks);
        if (why) return callback(Object.assign(new Error(why), { code: 'EPRIVATE' }), '', 0);
      }
      // The caller asked for one address or for all, as dns.lookup answers either.
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * The connections of callbacks: with private networks refused (production), only public addresses;
 * with them allowed (the demo), anything but link-local and metadata addresses.
 */
const agents = new Map(
  [false, true].map((privateNetworks) => [
    privateNetworks,
    new Agent({ connect: { lookup: checkedLookup(privateNetworks) } }),
  ]),
);

/**
 * POSTs a form body to `url` and reads the answer: no redirect is followed (a 3xx is a failed
 * attempt), the whole exchange is bounded by `timeoutMs`, and at most 64 KiB of the answer is read.
 * Link-local and cloud metadata addresses are refused before connecting (NEVER), and so are, unless
 * `privateNetworks` is allowed, addresses in private or reserved ranges (PRIVATE).
 */
export async function postForm(
  url: string,
  body: string,
  timeoutMs: number,
  options: { privateNetworks: boolean },
): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // An IP literal is connected to without a lookup: check it here (a name is checked by the lookup).
  const host = hostOf(url);
  const why = host === null ? null : hostRefusal(host, options.privateNetworks);
  if (why) return { status: null, responseBody: null, error: why, durationMs: elapsed(), succeeded: false };
  try {
    const res = await fetch(url, {
      dispatcher: agents.get(options.privateNetworks)!,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'user-agent': 'PayDesk-Callback/1.0',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { bytes, complete } = await readUpTo(res, READ_LIMIT);
    const text = bytes.toString('utf8');
    const is2xx = res.status >= 200 && res.status < 300;
    const succeeded = is2xx && complete && text.trim().toUpperCase() === 'SUCCESS';
    let error: string | null = null;
    if (!succeeded) {
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        error = `HTTP ${res.status}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`;
      } else if (!is2xx) error = `HTTP ${res.status}`;
      else error = 'the answer is not SUCCESS';
    }
    return {
      status: res.status,
      responseBody: bytes.subarray(0, CALLBACK_RESPONSE_LIMIT).toString('utf8'),
      error,
      durationMs: elapsed(),
      succeeded,
    };
  } catch (error) {
    return {
      status: null,
      responseBody: null,
      error: describeError(error, timeoutMs),
      durationMs: elapsed(),
      succeeded: false,
    };
  }
}
