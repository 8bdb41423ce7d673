import 'server-only';
import { eq } from 'drizzle-orm';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { paymentReferences, type PaymentReferenceRow } from '@/lib/db/schema';
import type { PaymentReceipt } from './schemas';

/** GET /v1/payments/{reference}: the receipt, with the payment's fields once one was found. */
export function receiptOf(row: PaymentReferenceRow): PaymentReceipt {
  return {
    reference: row.reference,
    status: row.status,
    tag: `@${row.tag}`,
    recipient: row.recipient,
    amount: row.amount,
    asset: row.asset,
    issuedAt: row.issuedAt.toISOString(),
    ...(row.signature !== null ? { signature: row.signature } : {}),
    ...(row.slot !== null ? { slot: row.slot } : {}),
    ...(row.payer !== null ? { payer: row.payer } : {}),
    ...(row.paidAt !== null ? { paidAt: row.paidAt.toISOString() } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.attributed !== null ? { attributed: row.attributed } : {}),
  };
}

export function unknownReference(): AppError {
  return new AppError('not_found', 'No payment reference issued by this service has this key');
}

export async function readReceipt(db: Db, reference: string): Promise<PaymentReceipt> {
  const [row] = await db.select().from(paymentReferences).where(eq(paymentReferences.reference, reference));
  if (!row) throw unknownReference();
  return receiptOf(row);
}
