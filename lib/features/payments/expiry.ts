import 'server-only';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { paymentPayoutCursors, paymentReferences } from '@/lib/db/schema';

/*
 * References expire (DESIGN.md "Payments and receipts"): a reference is open for
 * PAYMENT_REFERENCE_TTL_SECONDS after it is issued. After that its receipt reads `expired`, the
 * finding pass reads no payout account for it, and an unpaid row is deleted a week later, so
 * junk references cost neither look-ups nor rows for long.
 */

/** An expired, unpaid row is kept this long after it expired (its receipt still answers `expired`), then deleted. */
export const KEEP_EXPIRED_MS = 7 * 24 * 60 * 60 * 1000;

/** When a reference issued at `issuedAt` expires. */
export function referenceExpiry(issuedAt: Date, ttlSeconds: number): Date {
  return new Date(issuedAt.getTime() + ttlSeconds * 1000);
}

/**
 * Deletes the unpaid references that expired more than KEEP_EXPIRED_MS ago, and the cursors of
 * payout accounts with nothing open for as long (a payee back later is read from its first open
 * issue again); how many references.
 */
export async function pruneExpiredReferences(db: Db, now: Date): Promise<number> {
  const long = new Date(now.getTime() - KEEP_EXPIRED_MS);
  await db.delete(paymentPayoutCursors).where(lt(paymentPayoutCursors.openUntil, long));
  const deleted = await db
    .delete(paymentReferences)
    .where(and(eq(paymentReferences.status, 'pending'), lt(paymentReferences.expiresAt, long)))
    .returning({ reference: paymentReferences.reference });
  return deleted.length;
}
