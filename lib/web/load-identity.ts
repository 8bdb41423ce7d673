import { cache } from 'react';
import { AppError } from '@/lib/api/errors';
import { getServices } from '@/lib/api/services';
import { getIdentity, type Identity } from '@/lib/identity';

/**
 * The public identity for the /@tag page, its metadata and its image, or null for anything
 * that must show the 404 page: a missing tag, a blocked one, a malformed one. Read once per
 * request (React `cache`), through the same `getIdentity` as GET /v1/identity/{tag}.
 */
export const loadPublicIdentity = cache(async (tagInput: string): Promise<Identity | null> => {
  const { db } = await getServices();
  try {
    return await getIdentity(db, tagInput);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_tag')) return null;
    throw err;
  }
});
