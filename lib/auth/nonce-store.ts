import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { authNonces, type AuthNonce } from '@/lib/db/schema';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export async function storeNonce(
  db: Db,
  n: { nonce: string; pubkey: string; message: string; issuedAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(authNonces).values({
    nonce: n.nonce,
    pubkey: n.pubkey,
    messageHash: sha256Hex(n.message),
    issuedAt: n.issuedAt,
    expiresAt: n.expiresAt,
  });
}

/**
 * Consumes a nonce in one atomic statement (SPEC 3.2): of any number of concurrent callers,
 * exactly one gets the row; everyone else, and every later caller, gets null.
 */
export async function consumeNonce(db: Db, nonce: string, now: Date): Promise<AuthNonce | null> {
  const rows = await db
    .update(authNonces)
    .set({ consumedAt: now })
    .where(and(eq(authNonces.nonce, nonce), isNull(authNonces.consumedAt)))
    .returning();
  return rows[0] ?? null;
}

/** Deletes challenges that expired over an hour ago (run by the cron job). */
export async function pruneNonces(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 60 * 60 * 1000);
  const rows = await db.delete(authNonces).where(lt(authNonces.expiresAt, cutoff)).returning({ n: sql`1` });
  return rows.length;
}
