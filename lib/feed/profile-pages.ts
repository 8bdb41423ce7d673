import { createHmac, createHash, timingSafeEqual } from 'node:crypto';
import { resolveAuthSecret } from '@/lib/auth/secret';
import { getConfig } from '@/lib/config';

/*
 * The cached /@tag pages (DESIGN.md "For integrators"): each page is tagged with its tag's
 * cache tag when rendered, and every change to the tag expires it (`afterIdentityChanges`).
 * Inside the Next.js server that is a direct `revalidateTag`; any other process (the admin
 * CLI) asks the app to do it through POST /api/internal/revalidate, authenticated with a
 * token derived from AUTH_SECRET, which the CLI and the app share already.
 */

/** The Next.js cache tag of everything rendered from one identity (`identity:alice`). */
export function profileCacheTag(tag: string): string {
  return `identity:${tag}`;
}

export const REVALIDATE_PATH = '/api/internal/revalidate';

const TOKEN_PURPOSE = 'identity-tag-service/revalidate-profile-pages/v1';

/** The bearer token of POST /api/internal/revalidate: an HMAC of a fixed purpose under the secret. */
export function revalidationToken(authSecret: string): string {
  return createHmac('sha256', authSecret).update(TOKEN_PURPOSE).digest('base64url');
}

/** Constant-time check of an `Authorization` header against the token (hashed first: equal lengths). */
export function isRevalidationAuthorized(authorization: string | null, authSecret: string): boolean {
  if (!authorization) return false;
  const expected = createHash('sha256').update(`Bearer ${revalidationToken(authSecret)}`).digest();
  const given = createHash('sha256').update(authorization).digest();
  return timingSafeEqual(expected, given);
}

export class RevalidationError extends Error {
  override name = 'RevalidationError';
}

/**
 * Expires the cached pages of `tags` so that the next view renders afresh. In the Next.js
 * server process (route handlers, server actions, the cron route) it calls `revalidateTag`
 * with `expire: 0` (no stale view is ever served after it); elsewhere it calls the app at
 * APP_URL and throws RevalidationError when the app did not confirm.
 */
export async function expireProfilePages(tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  if (process.env.NEXT_RUNTIME) {
    const { revalidateTag } = await import('next/cache');
    for (const tag of tags) revalidateTag(profileCacheTag(tag), { expire: 0 });
    return;
  }
  const config = getConfig();
  const authorization = `Bearer ${revalidationToken(resolveAuthSecret(config))}`;
  for (let i = 0; i < tags.length; i += MAX_TAGS_PER_REVALIDATION) {
    await postRevalidation(config.appUrl, authorization, tags.slice(i, i + MAX_TAGS_PER_REVALIDATION));
  }
}

/** The most tags one POST /api/internal/revalidate takes. */
export const MAX_TAGS_PER_REVALIDATION = 100;

async function postRevalidation(appUrl: URL, authorization: string, tags: readonly string[]): Promise<void> {
  let res: Response;
  try {
    res = await fetch(new URL(REVALIDATE_PATH, appUrl), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ tags }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new RevalidationError(`could not reach the app at ${appUrl.origin} (${(err as Error).message})`);
  }
  if (!res.ok) throw new RevalidationError(`the app at ${appUrl.origin} answered ${res.status} to ${REVALIDATE_PATH}`);
}
