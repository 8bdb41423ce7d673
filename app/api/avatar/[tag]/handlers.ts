// GET /api/avatar/{tag}'s handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { withApi, withRateLimit, type ApiContext } from '@/lib/http/handler';
import { AppError } from '@/lib/core/errors';
import { normalizePathTag } from '@/lib/core/tag';
import { findActiveIdentity } from '@/lib/features/identity/active';
import { fetchAvatarImage } from '@/lib/web/server/avatar-image';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

type TagRoute = { tag: string };
const ROUTE = '/api/avatar/{tag}';

export function avatarHandlers(provide: ServicesProvider) {
  // Every request fetches the image from its host (up to 2 MB, 5 s): limited per client address,
  // so that nobody can make the app fetch on their behalf without bound.
  const GET = withApi<TagRoute>(
    withRateLimit<ApiContext<TagRoute>>('avatar', async (_req, { params, services: { db } }) => {
      const tag = normalizePathTag(params.tag);
      const identity = tag ? await findActiveIdentity(db, tag) : null;
      if (!identity?.avatar) throw new AppError('not_found', 'No avatar to show.');
      const image = await fetchAvatarImage(identity.avatar);
      // The page shows an avatar here: a host that fails (or an image our rules refuse) gets a
      // neutral placeholder rather than a broken image and an error in the visitor's console.
      if (!image) return avatarPlaceholder();
      return new Response(new Uint8Array(image.body), {
        headers: {
          'Content-Type': image.type,
          'Content-Length': String(image.body.length),
          // The page's address carries the avatar URL's version: a new avatar is a new address.
          'Cache-Control': 'public, max-age=3600, s-maxage=86400',
          'Cross-Origin-Resource-Policy': 'same-origin',
          'Content-Disposition': 'inline',
        },
      });
    }),
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}

/** A grey disc, kept a few minutes only: the avatar's host may answer again soon. */
const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#d4d4d8"/></svg>';

function avatarPlaceholder(): Response {
  return new Response(PLACEHOLDER_SVG, {
    headers: {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=300',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Avatar-Placeholder': '1',
    },
  });
}
