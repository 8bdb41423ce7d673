import 'server-only';
import type { Db } from '@/lib/db';
import { paymentEvents, type PaymentReferenceRow } from '@/lib/db/schema';
import { receiptOf } from './receipt';

/*
 * The payee is told (DESIGN.md "Payments and receipts"): a receipt that becomes `confirmed`, and
 * again `finalized`, is written as a `payment.received` event for the owner the reference was
 * issued under, in the same transaction as the receipt, so that an event exists exactly when the
 * receipt says so. A payment first found already finalized makes one event, at `finalized`.
 * The webhook delivery sends it (lib/features/webhooks/subscription-events.ts).
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Records the event of `row`, just settled; nothing for an `invalid` receipt or one with no owner on record. */
export async function recordPaymentEvent(tx: Tx | Db, row: PaymentReferenceRow, now: Date): Promise<void> {
  if (row.owner === null || (row.status !== 'confirmed' && row.status !== 'finalized')) return;
  await tx
    .insert(paymentEvents)
    .values({
      reference: row.reference,
      owner: row.owner,
      tag: row.tag,
      status: row.status,
      receipt: receiptOf(row, now),
      at: now,
    })
    .onConflictDoNothing();
}
