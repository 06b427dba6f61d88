import { BlockList, isIP } from 'node:net';
import { Code, type Issue, MERCHANT_TEXTS, MIN_WHITELIST_PREFIX } from '@paydesk/contract';
import { AppError } from './errors.js';

/**
 * Address lists: a merchant's API whitelist and the staff sign-in whitelist. An entry is an IPv4 or
 * IPv6 address or a CIDR range, no wider than MIN_WHITELIST_PREFIX (a catch-all such as 0.0.0.0/0
 * would make the list stop nobody).
 */

/** IPv4-mapped IPv6 addresses: BlockList matches IPv4 callers against IPv6 rules covering them. */
const MAPPED_V4 = new BlockList();
MAPPED_V4.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * Whether a range is wider than MIN_WHITELIST_PREFIX allows. An IPv6 range holding IPv4-mapped
 * addresses is as wide for IPv4 callers as its mapped part: `::/32` holds all of them (IPv4 /0),
 * `::ffff:10.0.0.0/104` is IPv4 /8.
 */
function tooWide(address: string, prefix: number, family: 4 | 6): boolean {
  if (family === 4) return prefix < MIN_WHITELIST_PREFIX.ipv4;
  if (prefix < MIN_WHITELIST_PREFIX.ipv6) return true;
  if (prefix >= 96) return MAPPED_V4.check(address, 'ipv6') && prefix - 96 < MIN_WHITELIST_PREFIX.ipv4;
  const range = new BlockList();
  range.addSubnet(address, prefix, 'ipv6');
  return range.check('::ffff:0:0', 'ipv6');
}

/** One entry checked: trimmed, or why it is refused. */
export function parseIpEntry(raw: string): { entry: string } | { reason: 'invalidIp' | 'ipTooWide' } {
  const entry = raw.trim();
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = address.includes('%') ? 0 : isIP(address);
  let ok = family !== 0 && rest.length === 0;
  if (ok && prefix !== undefined) ok = /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  if (ok) {
    try {
      const list = new BlockList();
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    } catch {
      ok = false;
    }
  }
  if (!ok) return { reason: 'invalidIp' };
  if (prefix !== undefined && tooWide(address, Number(prefix), family as 4 | 6)) return { reason: 'ipTooWide' };
  return { entry };
}

/**
 * Checks and normalises a list: entries trimmed, duplicates dropped. Bad entries answer 400 naming
 * their position under `field`, with the first one's reason (invalidIp, ipTooWide) for the console.
 */
export function normalizeIpList(entries: readonly string[], field: string): string[] {
  const issues: Array<Issue & { reason: 'invalidIp' | 'ipTooWide' }> = [];
  const out: string[] = [];
  entries.forEach((raw, i) => {
    const parsed = parseIpEntry(raw);
    const path = `${field}.${i}`;
    if ('reason' in parsed) {
      const message =
        parsed.reason === 'invalidIp' ? MERCHANT_TEXTS.invalidIp : `${raw.trim()}: ${MERCHANT_TEXTS.ipTooWide}`;
      issues.push({ path, message, reason: parsed.reason });
    } else if (!out.includes(parsed.entry)) out.push(parsed.entry);
  });
  const [first] = issues;
  if (first) {
    throw new AppError(Code.invalidInput, first.message, {
      issues: issues.map(({ path, message }) => ({ path, message })),
      reason: first.reason,
    });
  }
  return out;
}

/**
 * Whether `ip` is in the list (addresses and CIDR ranges, as `normalizeIpList` keeps them); an empty
 * list lets every address in. A caller seen as an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, a
 * dual-stack socket) matches the IPv4 rules, and the other way round.
 */
export function ipAllowed(whitelist: readonly string[], ip: string): boolean {
  if (whitelist.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of whitelist) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
