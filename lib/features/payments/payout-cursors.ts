import 'server-only';
import { gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { paymentPayoutCursors } from '@/lib/db/schema';

/*
 * Where the finding pass stopped reading each payout account: the newest signature it has
 * judged, with every older one since the previous cursor judged too. A run asks the cluster
 * only for signatures after it, so an account with nothing new costs one short answer.
 */

export interface PayoutCursor {
  signature: string;
  slot: number;
}

/** One account's read in a run: where it got to (null: nothing new judged) and till when it has open references. */
export interface AccountRead {
  account: string;
  cursor: PayoutCursor | null;
  openUntil: Date;
}

/** The cursors of `accounts`, by account. */
export async function readCursors(db: Db, accounts: string[]): Promise<Map<string, PayoutCursor>> {
  if (accounts.length === 0) return new Map();
  const rows = await db.select().from(paymentPayoutCursors).where(inArray(paymentPayoutCursors.account, accounts));
  const cursors = new Map<string, PayoutCursor>();
  for (const row of rows) {
    if (row.signature !== null && row.slot !== null)
      cursors.set(row.account, { signature: row.signature, slot: row.slot });
  }
  return cursors;
}

/**
 * Records a run's reads in one statement. A cursor only moves forward (two passes at once, on
 * two instances, cannot move it back); an account read with nothing new keeps its cursor.
 */
export async function writeReads(db: Db, reads: AccountRead[], now: Date): Promise<void> {
  if (reads.length === 0) return;
  const t = paymentPayoutCursors;
  await db
    .insert(t)
    .values(
      reads.map(({ account, cursor, openUntil }) => ({
        account,
        signature: cursor?.signature ?? null,
        slot: cursor?.slot ?? null,
        readAt: now,
        openUntil,
      })),
    )
    .onConflictDoUpdate({
      target: t.account,
      set: {
        readAt: sql`excluded.read_at`,
        openUntil: sql`excluded.open_until`,
        signature: sql`CASE WHEN excluded.slot IS NOT NULL AND (${t.slot} IS NULL OR excluded.slot >= ${t.slot}) THEN excluded.signature ELSE ${t.signature} END`,
        slot: sql`CASE WHEN excluded.slot IS NOT NULL AND (${t.slot} IS NULL OR excluded.slot >= ${t.slot}) THEN excluded.slot ELSE ${t.slot} END`,
      },
    });
}

/** The read least recent among the accounts with open references: null when none has been read. */
export async function stalestOpenRead(db: Db, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ stalest: sql<string | null>`min(${paymentPayoutCursors.readAt})` })
    .from(paymentPayoutCursors)
    .where(gt(paymentPayoutCursors.openUntil, now));
  return row?.stalest ? new Date(row.stalest) : null;
}
