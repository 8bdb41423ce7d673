import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { toIdentity, toResolvedIdentity } from './identity-response';
import { indexedSlotHeaders } from '@/lib/db/indexed-slot';
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

/** An answer and the slot the mirror reflected when it was read (the X-Indexed-Slot header). */
export interface AtSlot<T> {
  value: T;
  indexedSlot: string;
}

/** GET /v1/identity/{tag} (SPEC 4.3): the active identity; 400 malformed, 404 missing or blocked (with the slot read). */
export async function getIdentityAtSlot(db: Db, tagInput: string): Promise<AtSlot<Identity>> {
  const { row, indexedSlot } = await findActiveIdentityAtSlot(db, parseTagParam(tagInput));
  if (!row) throw tagNotFound().withHeaders(indexedSlotHeaders(indexedSlot));
  return { value: toIdentity(row), indexedSlot };
}

/** As getIdentityAtSlot, the identity alone. */
export async function getIdentity(db: Db, tagInput: string): Promise<Identity> {
  return (await getIdentityAtSlot(db, tagInput)).value;
}

/** GET /v1/resolve/{tag}: as getIdentityAtSlot, without `bio`. */
export async function resolveIdentityAtSlot(db: Db, tagInput: string): Promise<AtSlot<ResolvedIdentity>> {
  const { row, indexedSlot } = await findActiveIdentityAtSlot(db, parseTagParam(tagInput));
  if (!row) throw tagNotFound().withHeaders(indexedSlotHeaders(indexedSlot));
  return { value: toResolvedIdentity(row), indexedSlot };
}
