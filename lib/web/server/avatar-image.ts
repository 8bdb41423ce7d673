import 'server-only';
import type { IncomingMessage } from 'node:http';
import { get } from 'node:https';
import { isPublicAddress, literalAddressOf, publicOnlyLookup } from '@/lib/core/public-address';

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

export type AvatarImage = { type: (typeof AVATAR_TYPES)[number]; body: Buffer };

/** The image at `url` under the rules above, or null when any rule refuses it or the host fails. */
export async function fetchAvatarImage(url: string): Promise<AvatarImage | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (
    target.protocol !== 'https:' ||
    (target.port !== '' && target.port !== '443') ||
    target.username ||
    target.password
  )
    return null;
  const literal = literalAddressOf(target);
  if (literal && !isPublicAddress(literal)) return null;
  try {
    return await new Promise<AvatarImage | null>((resolve, reject) => {
      const req = get(
        target,
        { lookup: publicOnlyLookup, timeout: AVATAR_TIMEOUT_MS, headers: { accept: AVATAR_TYPES.join(', ') } },
        (res) => readImage(res).then(resolve, reject),
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
