import 'server-only';
import type { Db } from '@/lib/db';
import { toIdentity } from '@/lib/features/identity/identity-response';
import { findActiveIdentity } from '@/lib/features/identity/active';
import { type Identity } from '@/lib/features/identity/schemas';
import { readSignalFacts, type SignalFacts } from '@/lib/features/identity/signals';
import { normalizePathTag } from '@/lib/core/tag';

/**
 * The public identity for the /@tag page and its image, or null for anything that must show
 * the not-found page: a missing tag, a blocked one, a malformed one (no read for those).
 * One indexed read, per view: nothing is kept, so nothing has to be expired when it changes.
 */
export async function loadPublicIdentity(db: Db, tagInput: string): Promise<Identity | null> {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  const row = await findActiveIdentity(db, tag);
  return row ? toIdentity(row) : null;
}

/** The payer signals of the /@tag page (lib/features/identity/signals.ts), read per view as the identity is; null as loadPublicIdentity. */
export async function loadSignalFacts(db: Db, tagInput: string): Promise<SignalFacts | null> {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  return (await readSignalFacts(db, tag)).value;
}
