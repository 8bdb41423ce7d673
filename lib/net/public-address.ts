import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Server-side fetches of URLs that users chose (avatars, webhook targets) go only to the public
 * internet: never to private, loopback, link-local, shared or metadata addresses. A host name is
 * judged on every address it resolves to, in the lookup of the connection itself, so a name
 * that resolves differently on a second query (DNS rebinding) cannot slip through.
 */

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
// IPv4-mapped addresses (::ffff:a.b.c.d) are judged as the IPv4 address they carry (below);
// a ::ffff:0:0/96 rule here would make BlockList refuse every IPv4 address.
for (const [net, prefix] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is on the public internet (not private, loopback, link-local, reserved). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) return isPublicAddress(address.slice(7));
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
    if (refused) return callback(new NonPublicAddressError(`${hostname} resolves to a non-public address (${refused.address})`), address as never, family);
    callback(null, address as never, family);
  });
};
