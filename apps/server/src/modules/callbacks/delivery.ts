import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { CALLBACK_RESPONSE_LIMIT } from '@paydesk/contract';
import { Agent, type Dispatcher, request } from 'undici';

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

async function readUpTo(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ bytes: Buffer; complete: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(bytes);
    size += bytes.byteLength;
    if (size > limit) {
      // Stop reading: the rest of the answer is dropped with the connection.
      body.destroy();
      return { bytes: Buffer.concat(chunks), complete: false };
    }
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}

/**
 * The ports browsers' fetch refuses (the WHATWG "bad port" list: mail, news, remote shells and the like):
 * a merchant's notify URL may not turn a callback into a request to such a service.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The URL's port when it is on the bad-port list (an http(s) URL without one uses 80 or 443: allowed). */
function badPortOf(url: string): number | null {
  try {
    const port = Number(new URL(url).port);
    return port && BAD_PORTS.has(port) ? port : null;
  } catch {
    return null;
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  // undici's request throws the connection's error itself (a refused connection, a refused lookup).
  const cause = e?.cause?.message ? e.cause : e;
  if (cause?.message)
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return String(error);
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
 * The checked connections for other calls to URLs an account chooses (a payout gateway's base URL):
 * a name's addresses are checked as callbacks' are. An IP literal is connected to without a lookup:
 * check the URL with `urlRefusal` first.
 */
export function checkedAgent(privateNetworks: boolean): Dispatcher {
  return agents.get(privateNetworks)!;
}

/** Why `url` may not be called, checked before connecting (an IP literal's range, a bad port), or null. */
export function urlRefusal(url: string, privateNetworks: boolean): string | null {
  const host = hostOf(url);
  const why = host === null ? null : hostRefusal(host, privateNetworks);
  if (why) return why;
  if (badPortOf(url) !== null) return 'this port may not be called (bad port)';
  return null;
}

/**
 * POSTs a form body to `url` and reads the answer (undici's `request`: no redirect is followed, a 3xx is
 * a failed attempt); the whole exchange is bounded by `timeoutMs`, and at most 64 KiB of the answer is
 * read. Link-local and cloud metadata addresses are refused before connecting (NEVER), and so are,
 * unless `privateNetworks` is allowed, addresses in private or reserved ranges (PRIVATE), and the ports
 * of the bad-port list. `signal` cuts the exchange short (a dispatcher stopping): it ends as no answer.
 */
export async function postForm(
  url: string,
  body: string,
  timeoutMs: number,
  options: { privateNetworks: boolean; signal?: AbortSignal | undefined },
): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = (error: string): Exchange => ({
    status: null,
    responseBody: null,
    error,
    durationMs: elapsed(),
    succeeded: false,
  });
  // An IP literal is connected to without a lookup: check it here (a name is checked by the lookup).
  const why = urlRefusal(url, options.privateNetworks);
  if (why) return refused(why);
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(url, {
      dispatcher: checkedAgent(options.privateNetworks),
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'user-agent': 'PayDesk-Callback/1.0',
      },
      body,
      maxRedirections: 0,
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
    const { bytes, complete } = await readUpTo(res.body, READ_LIMIT);
    const text = bytes.toString('utf8');
    const status = res.statusCode;
    const is2xx = status >= 200 && status < 300;
    const succeeded = is2xx && complete && text.trim().toUpperCase() === 'SUCCESS';
    let error: string | null = null;
    if (!succeeded) {
      if (status >= 300 && status < 400) {
        const raw = res.headers.location;
        const location = Array.isArray(raw) ? raw[0] : raw;
        error = `HTTP ${status}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`;
      } else if (!is2xx) error = `HTTP ${status}`;
      else error = 'the answer is not SUCCESS';
    }
    return {
      status,
      responseBody: bytes.subarray(0, CALLBACK_RESPONSE_LIMIT).toString('utf8'),
      error,
      durationMs: elapsed(),
      succeeded,
    };
  } catch (error) {
    return refused(describeError(error, timeoutMs));
  }
}
