import 'server-only';
import type { Db } from '@/lib/db';
import { toIdentity } from '@/lib/features/identity/identity-response';
import { findActiveIdentity } from '@/lib/features/identity/active';
import { type Identity } from '@/lib/features/identity/schemas';
import { readProfileFacts, type SignalFacts } from '@/lib/features/identity/signals';
import { normalizePathTag } from '@/lib/core/tag';

/**
 * The public identity for the profile's share image, or null for anything that must show
 * the not-found answer: a missing tag, a blocked one, a malformed one (no read for those).
 * One indexed read, per view: nothing is kept, so nothing has to be expired when it changes.
 */
export async function loadPublicIdentity(db: Db, tagInput: string): Promise<Identity | null> {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  const row = await findActiveIdentity(db, tag);
  return row ? toIdentity(row) : null;
}

/** The /@tag page's identity and its payer signals (lib/features/identity/signals.ts), from one read per view; null as loadPublicIdentity. */
export async function loadProfile(
  db: Db,
  tagInput: string,
): Promise<{ identity: Identity; signals: SignalFacts } | null> {
  const tag = normalizePathTag(tagInput);
  if (!tag) return null;
  const found = await readProfileFacts(db, tag);
  return found && { identity: toIdentity(found.row), signals: found.facts };
}
