import 'server-only';
import { createHash } from 'node:crypto';
import type { Identity } from '@/lib/features/identity/schemas';
import { KeptBytes } from '@/lib/core/kept-bytes';

/*
 * Share images (GET /profile/{tag}/opengraph-image), drawn once per tag and profile version
 * and kept as PNG bytes. The version is the hash of exactly what the image shows (and of
 * OG_IMAGE_DRAWING, raised when the drawing changes), so a profile edit makes a new version by
 * construction and nothing has to be expired. It is also the image's ETag: a crawler that
 * asks again gets a 304, and `?v=<version>` names one image for good (immutable).
 *
 * Drawing costs far more CPU than a kept image's map lookup (bench/results/figures-once-in-comments.md). Bounded by
 * bytes: OG_IMAGES_KEPT_BYTES, oldest use forgotten first, which keeps several hundred tags' images.
 */

/** Raise when the drawing changes: every version changes with it. */
const OG_IMAGE_DRAWING = 1;
export const OG_IMAGES_KEPT_BYTES = 16 * 1024 * 1024;

/** What the image shows of an identity. */
export type DrawnIdentity = Pick<Identity, 'tag' | 'displayName' | 'bio' | 'verified' | 'merchant'>;

/** The version of the image of `identity`: 22 base64url characters of a SHA-256. */
export function ogImageVersion({ tag, displayName, bio, verified, merchant }: DrawnIdentity): string {
  return createHash('sha256')
    .update(JSON.stringify([OG_IMAGE_DRAWING, tag, displayName, bio, verified, merchant]))
    .digest('base64url')
    .slice(0, 22);
}

// On globalThis: one store per process, whichever chunk serves the route.
const STORE = Symbol.for('identity-tag-service.og-images');
const holder = globalThis as unknown as Record<typeof STORE, KeptBytes<Buffer> | undefined>;
const images = () => (holder[STORE] ??= new KeptBytes<Buffer>(OG_IMAGES_KEPT_BYTES, (png) => png.length));

/** The PNG of `version`: kept, or drawn by `draw` (once, however many ask at the same time) and kept. */
export function ogImageBytes(version: string, draw: () => Promise<Buffer>): Promise<Buffer> {
  return images().getOrMake(version, Date.now(), async () => {
    const png = await draw();
    images().set(version, png);
    return png;
  });
}
