import type { IdentityRow } from '@/lib/db/schema';
import { displayTag } from './tag';
import type { Identity, ResolvedIdentity } from './schemas';

/** Row → the public identity (SPEC 2.1): `@tag`, every field present, `createdAt` with ms. */
export function toIdentity(row: IdentityRow): Identity {
  return {
    tag: displayTag(row.tag),
    owner: row.owner,
    wallet: row.wallet,
    displayName: row.displayName,
    avatar: row.avatar,
    bio: row.bio,
    preferredToken: row.preferredToken,
    verified: row.verified,
    merchant: row.merchant,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Row → the resolve answer: the identity without `bio`. */
export function toResolvedIdentity(row: IdentityRow): ResolvedIdentity {
  const { bio: _bio, ...resolved } = toIdentity(row);
  return resolved;
}
