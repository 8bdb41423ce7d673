import { eq } from 'drizzle-orm';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';
import { changeIdentity } from './change-identity';
import { tagNotFound } from './get-identity';
import { toIdentity } from './identity-response';
import type { OwnerCheck } from './owner-on-chain';
import type { TokenCheck } from './keepable-token';
import { findIdentityRow } from './queries';
import { EDITABLE_PROFILE_KEYS, type Identity, type ProfilePatch } from './schemas';
import { isActiveIdentity, isActiveRow } from './active';

export interface UpdateProfileInput {
  /** The canonical tag (the route parsed the path with TagPath / parseTagParam). */
  tag: string;
  /** The authenticated public key (the token's `sub`); authentication happened before. */
  caller: string;
  /** The body, parsed by the route with ProfilePatch. */
  patch: ProfilePatch;
}

/**
 * PATCH /v1/identity/{tag} (SPEC 4.4), after authentication and after the route parsed the
 * tag, then the body (rule 4's order: 400 for a malformed tag, then for a malformed body): 404 for a missing or blocked tag (even one owned
 * by someone else); 403 for another owner's tag; then the update.
 *
 * Only the keys present are written, in one UPDATE guarded by tag, owner and status, so two
 * concurrent patches of different fields both survive and a tag blocked or handed over in
 * between is never written. `checkOwner` then asks the chain where the mirror may lag
 * (owner-on-chain.ts), and `checkToken` refuses a `preferredToken` whose mint a payee could not
 * keep payments in (keepable-token.ts), only for the owner, so strangers cost no RPC call.
 */
export async function updateProfile(
  db: Db,
  input: UpdateProfileInput,
  now: Date,
  checkOwner: OwnerCheck,
  checkToken: TokenCheck,
): Promise<Identity> {
  const { tag, patch } = input;

  const current = await findIdentityRow(db, tag);
  if (!current || !isActiveRow(current)) throw tagNotFound();
  if (current.owner !== input.caller) throw new AppError('forbidden', 'This tag belongs to another public key.');
  await checkOwner(current, input.caller);
  if (patch.preferredToken) await checkToken(patch.preferredToken);

  const changes: Partial<Pick<IdentityRow, (typeof EDITABLE_PROFILE_KEYS)[number]>> = {};
  for (const key of EDITABLE_PROFILE_KEYS) {
    if (patch[key] !== undefined) changes[key] = patch[key];
  }
  if (Object.keys(changes).length === 0) return toIdentity(current);

  return toIdentity(await changeIdentity(db, tag, changes, now, eq(identities.owner, input.caller), isActiveIdentity));
}
