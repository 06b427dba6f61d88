import { MIN_WHITELIST_PREFIX } from '@paydesk/contract';

/** Query keys of the merchants area; every change invalidates `merchantKeys.all`. */
export const merchantKeys = {
  all: ['merchants'] as const,
  list: ['merchants', 'list'] as const,
  mine: ['merchants', 'mine'] as const,
  unusedAccounts: ['merchants', 'unusedAccounts'] as const,
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** A first check of a whitelist entry in the form (the server checks it exactly). */
export function looksLikeIpOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && address.includes(':') && IPV6.test(address);
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128);
}

/**
 * A first check that a range is not catch-all (the server checks exactly, IPv4-mapped forms included):
 * a prefix shorter than MIN_WHITELIST_PREFIX, or an IPv4-mapped IPv6 range (::ffff:a.b.c.d) shorter
 * than /96 plus the IPv4 minimum.
 */
export function isTooWide(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined || !looksLikeIpOrCidr(entry)) return false;
  const bits = Number(prefix);
  if (IPV4.test(address)) return bits < MIN_WHITELIST_PREFIX.ipv4;
  if (/^::ffff:/i.test(address)) return bits < 96 + MIN_WHITELIST_PREFIX.ipv4;
  return bits < MIN_WHITELIST_PREFIX.ipv6;
}

/** The whitelist textarea's lines (or commas) as entries. */
export function whitelistEntries(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

/**
 * The merchant API's base address merchants are shown (ApiUrl, from getInfo): the setting when set,
 * else the console's own address.
 */
export function merchantApiBase(apiUrl: string | undefined, origin: string = location.origin): string {
  const set = apiUrl?.trim().replace(/\/+$/, '');
  if (set) return set;
  return /^https?:/.test(origin) ? origin : '';
}
