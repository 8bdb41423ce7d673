import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { toIdentity, toResolvedIdentity } from './identity-response';
import type { AtSlot } from '@/lib/db/indexed-slot';
import { findActiveIdentityAtSlot } from './active';
import type { Identity, ResolvedIdentity } from './schemas';
import { INVALID_TAG_MESSAGE, normalizePathTag } from '@/lib/core/tag';

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

/** GET /v1/identity/{tag} (SPEC 4.3): the active identity of a canonical tag, null when missing or blocked, and the slot read. */
export async function getIdentityAtSlot(db: Db, tag: string): Promise<AtSlot<Identity | null>> {
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  return { value: row && toIdentity(row), indexedSlot };
}

/** The active identity of a tag in path form; 400 malformed, 404 missing or blocked. */
export async function getIdentity(db: Db, tagInput: string): Promise<Identity> {
  const { value } = await getIdentityAtSlot(db, parseTagParam(tagInput));
  if (!value) throw tagNotFound();
  return value;
}

/** GET /v1/resolve/{tag}: as getIdentityAtSlot, without `bio`. */
export async function resolveIdentityAtSlot(db: Db, tag: string): Promise<AtSlot<ResolvedIdentity | null>> {
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  return { value: row && toResolvedIdentity(row), indexedSlot };
}
