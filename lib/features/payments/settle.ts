import 'server-only';
import type { Address } from '@solana/kit';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { paymentReferences, type PaymentReferenceRow } from '@/lib/db/schema';
import { isAttributed } from './attribution';
import { recordPaymentEvent } from './payment-events';
import { REJECTED_LISTED } from './schemas';
import type { ListedSignature } from '@/lib/chain/signatures-batch';
import type { Judgement, PaymentTransaction } from './validate-transfer';

/*
 * What a judged transaction does to a pending reference (DESIGN.md "Payments and receipts"):
 * the first valid payment settles it, once; one that fails validation is listed on the receipt
 * and decides nothing, so a stranger's dust payment cannot spoil a till.
 */

/** Settles `row` on a valid payment; false when it was no longer pending (another pass, or an earlier payment, settled it). */
export async function settle(
  db: Db,
  row: PaymentReferenceRow,
  payment: { tx: PaymentTransaction; listed: ListedSignature; paid: string; payer: string },
  identity: Address,
  now: Date,
): Promise<'confirmed' | 'finalized' | null> {
  const { tx, listed } = payment;
  const status = listed.confirmationStatus === 'finalized' ? 'finalized' : 'confirmed';
  const rows = await db.transaction(async (dbTx) => {
    const updated = await dbTx
      .update(paymentReferences)
      .set({
        status,
        signature: listed.signature,
        slot: Number(tx.slot),
        payer: payment.payer,
        paidAt: tx.blockTime == null ? null : new Date(Number(tx.blockTime) * 1000),
        attributed: isAttributed(tx, row.reference, identity),
        // A reference issued without an amount records what was paid.
        ...(row.amount === null ? { amount: payment.paid } : {}),
      })
      .where(and(eq(paymentReferences.reference, row.reference), eq(paymentReferences.status, 'pending')))
      .returning();
    for (const settled of updated) await recordPaymentEvent(dbTx, settled, now);
    return updated;
  });
  return rows.length > 0 ? status : null;
}

/**
 * Lists a transaction that named `reference` but does not pay what it was issued for: once per
 * signature (two passes may judge it), the first REJECTED_LISTED only, and only while pending.
 */
export async function reject(
  db: Db,
  reference: string,
  { signature, reason }: { signature: string; reason: string },
): Promise<void> {
  const entry = JSON.stringify([{ signature, reason }]);
  const named = JSON.stringify([{ signature }]);
  await db
    .update(paymentReferences)
    .set({ rejected: sql`${paymentReferences.rejected} || ${entry}::jsonb` })
    .where(
      and(
        eq(paymentReferences.reference, reference),
        eq(paymentReferences.status, 'pending'),
        sql`jsonb_array_length(${paymentReferences.rejected}) < ${REJECTED_LISTED}`,
        sql`NOT ${paymentReferences.rejected} @> ${named}::jsonb`,
      ),
    );
}

/** The judgement of a transaction for one reference it names, with the expiry applied. */
export function judgedInTime(row: PaymentReferenceRow, tx: PaymentTransaction, judgement: Judgement): Judgement {
  if (tx.blockTime != null && Number(tx.blockTime) * 1000 > row.expiresAt.getTime()) {
    return { valid: false, reason: 'the payment landed after the reference expired', payer: judgement.payer };
  }
  return judgement;
}
