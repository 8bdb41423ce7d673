import { lookup } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { get } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Profile avatars are URLs their owners chose, on any https host. Pages never load them from
 * there: a page would tell every visitor's address to whoever runs that host (a tracking
 * pixel), and it would fetch from a third party (none may). The app fetches the
 * image itself (GET /api/avatar/{tag}) and serves it from its own origin, guarded like any
 * server-side fetch of a user-chosen URL:
 * - https on port 443 only, no redirects followed;
 * - the host must resolve to a public address, checked on the address the connection
 *   actually uses (no private, loopback, link-local or metadata addresses, no DNS rebinding);
 * - at most MAX_AVATAR_BYTES, AVATAR_TIMEOUT_MS in all;
 * - raster images only (SVG can carry script), served under a CSP that allows nothing.
 */

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
export const AVATAR_TIMEOUT_MS = 5000;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;

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

/** Resolves like dns.lookup, refusing any answer that is not a public address. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address as never, family);
    const all = Array.isArray(address) ? address : [{ address, family }];
    const refused = all.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new Error(`avatar host resolves to a non-public address (${refused.address})`), address as never, family);
    callback(null, address as never, family);
  });
};

export type AvatarImage = { type: (typeof AVATAR_TYPES)[number]; body: Buffer };

/** The image at `url` under the rules above, or null when any rule refuses it or the host fails. */
export async function fetchAvatarImage(url: string): Promise<AvatarImage | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'https:' || (target.port !== '' && target.port !== '443') || target.username || target.password) return null;
  if (isIP(target.hostname.replace(/^\[|\]$/g, '')) && !isPublicAddress(target.hostname.replace(/^\[|\]$/g, ''))) return null;
  try {
    return await new Promise<AvatarImage | null>((resolve, reject) => {
      const req = get(target, { lookup: publicOnlyLookup, timeout: AVATAR_TIMEOUT_MS, headers: { accept: AVATAR_TYPES.join(', ') } }, (res) =>
        readImage(res).then(resolve, reject),
      );
      const deadline = setTimeout(() => req.destroy(new Error('avatar fetch timed out')), AVATAR_TIMEOUT_MS);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new Error('avatar fetch timed out')));
      req.on('error', reject);
    });
  } catch (err) {
    console.warn(`avatar: ${target.host}: ${err instanceof Error ? err.message : err}`);
    return null;
  }
}

async function readImage(res: IncomingMessage): Promise<AvatarImage | null> {
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() as AvatarImage['type'];
  const declared = Number(res.headers['content-length'] ?? '0');
  if (res.statusCode !== 200 || !AVATAR_TYPES.includes(type) || declared > MAX_AVATAR_BYTES) {
    res.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > MAX_AVATAR_BYTES) {
      res.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return { type, body: Buffer.concat(chunks) };
}
