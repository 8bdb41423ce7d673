import 'server-only';
import { isCanonicalTag } from '@/lib/core/tag';
import type { Db } from '@/lib/db';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';

/*
 * NIP-05 at /.well-known/nostr.json?name=<tag>: Nostr clients verify `alice@host` by finding the
 * key the profile claims under `names`. A tag names the key its owner set (`nostr`); a tag with
 * no key, a missing or blocked tag, or no name at all answers no name. Never enumerated: one name
 * per request.
 */

export interface NostrNames {
  names: Record<string, string>;
}

export async function nostrNames(
  db: Db,
  name: string | undefined,
): Promise<{ value: NostrNames; indexedSlot: string }> {
  // NIP-05's local part is case-insensitive; tags are lower-case
  const asked = name?.toLowerCase() ?? '';
  const tag = isCanonicalTag(asked) ? asked : '';
  const { row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  return { value: { names: row?.nostr ? { [tag]: row.nostr } : {} }, indexedSlot };
}
