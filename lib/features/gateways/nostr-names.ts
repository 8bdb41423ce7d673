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
  // Tags are lower-case; a client reads the answer under the name it asked (NIP-05's local part
  // is case-insensitive), so `Alice` is answered as `Alice`.
  const lower = name?.toLowerCase() ?? '';
  const tag = isCanonicalTag(lower) ? lower : '';
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  return { value: { names: row?.nostr ? { [name!]: row.nostr } : {} }, indexedSlot };
}
