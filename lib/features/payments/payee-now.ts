import 'server-only';
import type { Address } from '@solana/kit';
import { and, eq, isNotNull, or, ne, isNull } from 'drizzle-orm';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { readPayeeOnChain } from '@/lib/chain/payee-on-chain';
import { unsafePayout } from '@/lib/chain/payout-safety';
import type { Db } from '@/lib/db';
import { identities } from '@/lib/db/schema';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import type { Identity } from '@/lib/features/identity/schemas';

/*
 * Truth at issue time (DESIGN "Payments and receipts"): whom a payment request pays is what
 * the chain holds now (lib/chain/payee-on-chain.ts), never a lagging mirror; a payout that
 * would lose what it is sent is refused, and what was found is written back onto the tag's
 * row, so /@tag, resolve and the signals warn payers (lib/features/identity/payer-warnings.ts)
 * and the page shows no pay link while it stands.
 */

export interface PayeeNow {
  owner: string;
  wallet: string;
  /** The slot the cluster answered at. */
  slot: number;
}

export interface PayeeServices {
  db: Db;
  rpc: SolanaRpc;
  programAddress: Address;
}

/** The payee of `identity` on chain now; 404 without a live record, 400 `unsafe_payout` (with `reason`), 503 without the cluster. */
export async function payeeNow({ db, rpc, programAddress }: PayeeServices, identity: Identity): Promise<PayeeNow> {
  const tag = identity.tag.replace(/^@/, '');
  const found = await readPayeeOnChain({ rpc, programAddress, tag, mirroredWallet: identity.wallet });
  if (!found.record) throw tagNotFound();
  await writeBack(db, tag, found.record.wallet, found.unsafe);
  if (found.unsafe) throw unsafePayout(found.record.wallet, found.unsafe);
  return { ...found.record, slot: found.slot };
}

/**
 * Records the finding about `wallet` on the tag's row, or clears one that no longer holds; no
 * write when the row already says so (the usual case: a safe wallet, nothing recorded).
 */
async function writeBack(db: Db, tag: string, wallet: string, reason: string | null): Promise<void> {
  if (reason) {
    await db
      .update(identities)
      .set({ unsafePayoutWallet: wallet, unsafePayoutReason: reason })
      .where(
        and(
          eq(identities.tag, tag),
          or(
            isNull(identities.unsafePayoutWallet),
            ne(identities.unsafePayoutWallet, wallet),
            ne(identities.unsafePayoutReason, reason),
          ),
        ),
      );
    return;
  }
  await db
    .update(identities)
    .set({ unsafePayoutWallet: null, unsafePayoutReason: null })
    .where(
      and(eq(identities.tag, tag), isNotNull(identities.unsafePayoutWallet), eq(identities.unsafePayoutWallet, wallet)),
    );
}
