import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Server-side fetches of URLs that users chose (avatars, webhook targets) go only to the public
 * internet: never to private, loopback, link-local, shared or metadata addresses. A host name is
 * judged on every address it resolves to, in the lookup of the connection itself, so a name
 * that resolves differently on a second query (DNS rebinding) cannot slip through.
 */

/*
 * Which IP addresses an avatar fetch may connect to: the public internet only.
 * - IPv4: everything but the special-purpose ranges (IANA's registry).
 * - IPv6: global unicast (2000::/3) only, which leaves out loopback, unspecified, the
 *   IPv4-compatible ::/96 (`::127.0.0.1`), SIIT's ::ffff:0:0:0/96, local-use NAT64
 *   64:ff9b:1::/48, discard, unique-local, link- and site-local and multicast at once; and
 *   within it the ranges that are not one host of the internet or that tunnel to an IPv4
 *   address of their choosing: IETF protocol assignments 2001::/23 (Teredo, benchmarking,
 *   ORCHID), 6to4 2002::/16, documentation 2001:db8::/32 and 3fff::/20, SRv6 SIDs 5f00::/16.
 * - Two IPv6 forms carry an IPv4 address and are judged as that address: IPv4-mapped
 *   ::ffff:a.b.c.d and the well-known NAT64 prefix 64:ff9b::/96 (a NAT64 gateway connects to
 *   the embedded address, so 64:ff9b::8.8.8.8 is public and 64:ff9b::127.0.0.1 is not).
 */

/** A BlockList of one family's subnets, each `[network, prefix length]`. */
function blockListOf(family: 'ipv4' | 'ipv6', subnets: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of subnets) list.addSubnet(net, prefix, family);
  return list;
}

const NOT_PUBLIC_V4 = blockListOf('ipv4', [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]);

const GLOBAL_UNICAST_V6 = blockListOf('ipv6', [['2000::', 3]]);

const NOT_PUBLIC_V6 = blockListOf('ipv6', [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
]);

/** Whether an IP address is on the public internet (not private, loopback, link-local, reserved, tunnelled). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC_V4.check(address, 'ipv4');
  if (family !== 6) return false;
  const words = ipv6Words(address);
  if (!words) return false;
  const embedded = embeddedIpv4(words);
  if (embedded) return isPublicAddress(embedded);
  const canonical = words.map((w) => w.toString(16)).join(':');
  return GLOBAL_UNICAST_V6.check(canonical, 'ipv6') && !NOT_PUBLIC_V6.check(canonical, 'ipv6');
}

/** The IPv4 address an IPv4-mapped or well-known-NAT64 address carries, else null. */
function embeddedIpv4(words: number[]): string | null {
  const head = words.slice(0, 6).join(',');
  if (head !== '0,0,0,0,0,65535' && head !== '100,65435,0,0,0,0') return null; // ::ffff:0:0/96, 64:ff9b::/96
  const [hi, lo] = [words[6]!, words[7]!];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The IP address a URL's host names literally (`[::1]` → `::1`), or null for a host name. */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/** What publicOnlyLookup fails with: the host resolves to an address that is not public. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
}

/** Resolves like dns.lookup, refusing any answer that is not a public address. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address as never, family);
    const all = Array.isArray(address) ? address : [{ address, family }];
    const refused = all.find((a) => !isPublicAddress(a.address));
    if (refused)
      return callback(
        new NonPublicAddressError(`${hostname} resolves to a non-public address (${refused.address})`),
        address as never,
        family,
      );
    callback(null, address as never, family);
  });
};

/** The eight 16-bit words of an IPv6 address (a zone id dropped, a dotted IPv4 tail read), or null. */
function ipv6Words(address: string): number[] | null {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 1) return null;
  const words = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}
