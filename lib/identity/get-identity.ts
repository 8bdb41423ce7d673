import { AppError } from '@/lib/errors';
import type { Db } from '@/lib/db';
import { toIdentity, toResolvedIdentity } from './identity-response';
import { findActiveIdentity } from './queries';
import type { Identity, ResolvedIdentity } from './schemas';
import { INVALID_TAG_MESSAGE, normalizePathTag } from './tag';


/**
 * The one 404 for a missing and a blocked tag (SPEC 3.1, 4.3): same code, same message, so
 * the two cannot be told apart.
 */
export function tagNotFound(): AppError {
  return new AppError('not_found', 'No identity with this tag.');
}

/** Path form (`alice`, `@alice`, `%40alice`, any case) → canonical tag; 400 invalid_tag otherwise. */
export function parseTagParam(tagInput: string): string {
  const tag = normalizePathTag(tagInput);
  if (!tag) throw new AppError('invalid_tag', INVALID_TAG_MESSAGE);
  return tag;
}

/** GET /v1/identity/{tag} (SPEC 4.3): the active identity; 400 malformed, 404 missing or blocked. */
export async function getIdentity(db: Db, tagInput: string): Promise<Identity> {
  const row = await findActiveIdentity(db, parseTagParam(tagInput));
  if (!row) throw tagNotFound();
  return toIdentity(row);
}

/** GET /v1/resolve/{tag}: as getIdentity, without `bio`. */
export async function resolveIdentity(db: Db, tagInput: string): Promise<ResolvedIdentity> {
  const row = await findActiveIdentity(db, parseTagParam(tagInput));
  if (!row) throw tagNotFound();
  return toResolvedIdentity(row);
}
