import type { IdentityRow } from '@/lib/db/schema';
import { displayTag } from '@/lib/core/tag';
import type { Identity, ResolvedIdentity } from './schemas';
import { payoutFindingOf, unsafePayoutWarning } from './payer-warnings';

/**
 * What the public identity is made of: the row's public columns (batch reads select only these).
 * `createdAt` is the row's Date, or the ISO 8601 text a statement already wrote for it
 * (milliseconds, `Z`): a hundred-row batch then makes no Date only to print it again.
 */
export type PublicIdentityColumns = Pick<
  IdentityRow,
  'tag' | 'owner' | 'wallet' | 'displayName' | 'avatar' | 'bio' | 'preferredToken' | 'nostr' | 'verified' | 'merchant'
> & {
  createdAt: Date | string;
  /** What a payment request last found about a payout wallet (lib/features/payments/payee-now.ts); read by resolve. */
  unsafePayoutWallet?: string | null;
  unsafePayoutReason?: string | null;
};

/** Row → the public identity (SPEC 2.1): `@tag`, every field present, `createdAt` with ms. */
export function toIdentity(row: PublicIdentityColumns): Identity {
  return {
    tag: displayTag(row.tag),
    owner: row.owner,
    wallet: row.wallet,
    displayName: row.displayName,
    avatar: row.avatar,
    bio: row.bio,
    preferredToken: row.preferredToken,
    nostr: row.nostr,
    verified: row.verified,
    merchant: row.merchant,
    createdAt: typeof row.createdAt === 'string' ? row.createdAt : row.createdAt.toISOString(),
  };
}

/**
 * Row → the resolve answer: the identity without `bio`, and `warnings` when its payout wallet
 * would lose what it is sent (judged from the key and what the last payment request found on
 * chain: no RPC call per read).
 */
export function toResolvedIdentity(row: PublicIdentityColumns): ResolvedIdentity {
  const { bio: _bio, ...resolved } = toIdentity(row);
  const unsafe = unsafePayoutWarning(resolved.tag, row.wallet, payoutFindingOf(row));
  return unsafe ? { ...resolved, warnings: [unsafe] } : resolved;
}
