import 'server-only';
import { eq } from 'drizzle-orm';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { paymentReferences, type PaymentReferenceRow } from '@/lib/db/schema';
import type { PaymentReceipt, PaymentStatus } from './schemas';

/** A pending reference past its expiry reads `expired`: no payment found in time, and none will be looked for. */
function statusAt(row: PaymentReferenceRow, now: Date): PaymentStatus {
  return row.status === 'pending' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status;
}

/** GET /v1/payments/{reference}: the receipt at `now`, with the payment's fields once one was found. */
export function receiptOf(row: PaymentReferenceRow, now: Date): PaymentReceipt {
  return {
    reference: row.reference,
    status: statusAt(row, now),
    tag: `@${row.tag}`,
    recipient: row.recipient,
    amount: row.amount,
    asset: row.asset,
    issuedAt: row.issuedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ...(row.signature !== null ? { signature: row.signature } : {}),
    ...(row.slot !== null ? { slot: row.slot } : {}),
    ...(row.payer !== null ? { payer: row.payer } : {}),
    ...(row.paidAt !== null ? { paidAt: row.paidAt.toISOString() } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.attributed !== null ? { attributed: row.attributed } : {}),
    ...(row.rejected.length > 0 ? { rejected: row.rejected } : {}),
  };
}

export function unknownReference(): AppError {
  return new AppError('not_found', 'No payment reference issued by this service has this key');
}

export async function readReceipt(db: Db, reference: string, now: Date): Promise<PaymentReceipt> {
  const [row] = await db.select().from(paymentReferences).where(eq(paymentReferences.reference, reference));
  if (!row) throw unknownReference();
  return receiptOf(row, now);
}
