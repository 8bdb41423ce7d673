import { unstable_cache } from 'next/cache';
import { cache } from 'react';
import { getServices } from '@/lib/api/services';
import { profileCacheTag } from '@/lib/feed/profile-pages';
import { toIdentity } from '@/lib/identity/identity-response';
import { findActiveIdentity } from '@/lib/identity/queries';
import { type Identity } from '@/lib/identity/schemas';
import { readSignalFacts, type SignalFacts } from '@/lib/identity/signals';
import { normalizePathTag } from '@/lib/identity/tag';

/**
 * How long a cached /@tag page may go without a change before it is rendered again anyway.
 * Every change expires it at once (`afterIdentityChanges`); this bounds only what that cannot
 * reach: a change made while the app was down, whose in-memory expiry a restart forgets.
 */
export const PROFILE_REVALIDATE_SECONDS = 300;

/**
 * The public identity for the /@tag page, its metadata and its image, or null for anything
 * that must show the 404 page: a missing tag, a blocked one, a malformed one. Kept in Next's
 * data cache under the tag's cache tag (every spelling of a tag shares it), so the pages built
 * from it are tagged too and a change to the identity expires them all; read once per render.
 */
export const loadPublicIdentity = cache(async (tagInput: string): Promise<Identity | null> => {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  return unstable_cache(() => readPublicIdentity(tag), ['public-identity', tag], {
    tags: [profileCacheTag(tag)],
    revalidate: PROFILE_REVALIDATE_SECONDS,
  })();
});

async function readPublicIdentity(tag: string): Promise<Identity | null> {
  const { db } = await getServices();
  const row = await findActiveIdentity(db, tag);
  return row ? toIdentity(row) : null;
}

/**
 * The payer signals of the /@tag page (lib/identity/signals.ts), cached and expired with the
 * identity (the same cache tag); the warnings are decided from them at render time.
 */
export const loadSignalFacts = cache(async (tagInput: string): Promise<SignalFacts | null> => {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  return unstable_cache(async () => (await readSignalFacts((await getServices()).db, tag)).value, ['signal-facts', tag], {
    tags: [profileCacheTag(tag)],
    revalidate: PROFILE_REVALIDATE_SECONDS,
  })();
});
