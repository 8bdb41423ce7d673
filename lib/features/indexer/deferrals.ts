import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { indexerDeferrals, indexerSkips } from '@/lib/db/schema';

/** A transaction the indexer could not apply yet; the cursor waits before it. */
export interface DeferredTransaction {
  signature: string;
  slot: number;
  reason: string;
  /** Runs that have deferred it, this one included. */
  attempts: number;
  /** When a run first deferred it (ISO 8601). */
  since: string;
}

/** Signatures deferred by earlier runs of this program's indexer. */
export async function listDeferrals(db: Db, programId: string): Promise<string[]> {
  const rows = await db
    .select({ signature: indexerDeferrals.signature })
    .from(indexerDeferrals)
    .where(eq(indexerDeferrals.programId, programId));
  return rows.map((r) => r.signature);
}

/** Notes this run's deferrals: a new row, or one more attempt with the latest reason. */
export async function recordDeferrals(
  db: Db,
  programId: string,
  deferred: { signature: string; slot: number; reason: string }[],
  now: Date,
): Promise<DeferredTransaction[]> {
  const rows = await db
    .insert(indexerDeferrals)
    .values(
      deferred.map((d) => ({
        signature: d.signature,
        programId,
        reason: d.reason,
        attempts: 1,
        firstDeferredAt: now,
        lastDeferredAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: indexerDeferrals.signature,
      set: {
        reason: sql`excluded.reason`,
        attempts: sql`${indexerDeferrals.attempts} + 1`,
        lastDeferredAt: sql`excluded.last_deferred_at`,
      },
    })
    .returning({
      signature: indexerDeferrals.signature,
      attempts: indexerDeferrals.attempts,
      since: indexerDeferrals.firstDeferredAt,
    });
  const bySignature = new Map(rows.map((r) => [r.signature, r]));
  return deferred.map((d) => {
    const row = bySignature.get(d.signature)!;
    return { ...d, attempts: row.attempts, since: row.since.toISOString() };
  });
}

/** Forgets deferrals of transactions now applied. */
export async function clearDeferrals(db: Db, signatures: string[]): Promise<void> {
  await db.delete(indexerDeferrals).where(inArray(indexerDeferrals.signature, signatures));
}

/** Records transactions passed over for good, with why (idempotent: a replayed run adds nothing). */
export async function recordSkips(
  db: Db,
  programId: string,
  batch: { signature: string; slot: number }[],
  skips: { signature: string; reason: string }[],
  now: Date,
): Promise<void> {
  if (skips.length === 0) return;
  const slots = new Map(batch.map((b) => [b.signature, b.slot]));
  await db
    .insert(indexerSkips)
    .values(
      skips.map((s) => ({
        signature: s.signature,
        programId,
        slot: BigInt(slots.get(s.signature) ?? 0),
        reason: s.reason,
        recordedAt: now,
      })),
    )
    .onConflictDoNothing({ target: indexerSkips.signature });
}
