import 'server-only';
import { PublicKey, type Connection, type TransactionSignature } from '@solana/web3.js';
import { and, asc, count, eq, gt, inArray, min, sql } from 'drizzle-orm';
import { rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { paymentReferences, type PaymentReferenceRow } from '@/lib/db/schema';
import { isAttributed } from './attribution';
import { recordPaymentEvent } from './payment-events';
import { validateTransfer } from './validate-transfer';

/*
 * The finding pass (DESIGN.md "Payments and receipts"), run on the indexer's cron: the payee
 * never polls the cluster. Each run looks up at most `limit` open references, so its cost is
 * bounded however many are open; the young ones are looked up most often (a payment comes
 * soon after its reference is issued, or rarely at all) and every open one in its turn. A reference stays open until it is settled or OPEN_FOR_MS
 * old; a `confirmed` one stays open until its transaction is finalized.
 */

/** References are looked up this long after they are issued. */
export const OPEN_FOR_MS = 24 * 60 * 60 * 1000;
/** References looked up per run: at most one getSignaturesForAddress each, plus a getTransaction per payment found. */
export const REFERENCES_PER_RUN = 50;
/** Lookups in flight at once (the provider's rate limit, not the count, bounds a run's speed). */
const IN_FLIGHT = 8;

export interface FindPaymentsInput {
  db: Db;
  connection: Connection;
  now: Date;
  /** The service identity's public key: a payment carrying its signed memo is `attributed`. */
  identity: PublicKey;
  limit?: number;
}

export interface FindPaymentsSummary {
  /** Open references looked at. */
  checked: number;
  /** Receipts this run settled or moved on, by their new status. */
  confirmed: number;
  finalized: number;
  invalid: number;
  /** RPC requests spent. */
  rpcCalls: number;
  /** References whose status changed, for the payee's notification. */
  changed: string[];
}

const OPEN_STATUSES = ['pending', 'confirmed'] as const;

const openSince = (now: Date) =>
  and(
    inArray(paymentReferences.status, [...OPEN_STATUSES]),
    gt(paymentReferences.issuedAt, new Date(now.getTime() - OPEN_FOR_MS)),
  );

/** One pass over the open references, the most overdue first. */
export async function findPayments({
  db,
  connection,
  now,
  identity,
  limit = REFERENCES_PER_RUN,
}: FindPaymentsInput): Promise<FindPaymentsSummary> {
  const summary: FindPaymentsSummary = { checked: 0, confirmed: 0, finalized: 0, invalid: 0, rpcCalls: 0, changed: [] };
  const open = await db
    .select()
    .from(paymentReferences)
    .where(openSince(now))
    // Never looked up first; then each by when it was last looked up plus a quarter of its age
    // then: a reference issued a minute ago (a customer at the till) comes round again within
    // seconds, one 20 hours old every few hours, and no open reference is ever passed over for good.
    .orderBy(
      sql`${paymentReferences.checkedAt} + (${paymentReferences.checkedAt} - ${paymentReferences.issuedAt}) / 4 ASC NULLS FIRST`,
      asc(paymentReferences.issuedAt),
    )
    .limit(limit);
  if (open.length === 0) return summary;
  summary.checked = open.length;
  await db
    .update(paymentReferences)
    .set({ checkedAt: now })
    .where(
      inArray(
        paymentReferences.reference,
        open.map((row) => row.reference),
      ),
    );

  // Paid but not yet final: one getSignatureStatuses for all of them.
  const unfinal = open.filter((row) => row.status === 'confirmed' && row.signature !== null);
  if (unfinal.length > 0) {
    summary.rpcCalls += 1;
    const { value } = await rpcCall(() => connection.getSignatureStatuses(unfinal.map((row) => row.signature!)));
    for (const [i, row] of unfinal.entries()) {
      if (value[i]?.confirmationStatus !== 'finalized') continue;
      const moved = await db.transaction(async (tx) => {
        const rows = await tx
          .update(paymentReferences)
          .set({ status: 'finalized' })
          .where(and(eq(paymentReferences.reference, row.reference), eq(paymentReferences.status, 'confirmed')))
          .returning();
        for (const updated of rows) await recordPaymentEvent(tx, updated, now);
        return rows;
      });
      if (moved.length > 0) {
        summary.finalized += 1;
        summary.changed.push(row.reference);
      }
    }
  }

  const pending = open.filter((row) => row.status === 'pending');
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const row = pending[next++]!;
      try {
        await lookUp({ db, connection, now, identity }, row, summary);
      } catch (err) {
        // One reference's failure (the cluster briefly unreachable) waits for its next turn.
        console.warn(`payments: ${row.reference}: look-up failed:`, err instanceof Error ? err.message : err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, pending.length) }, worker));
  return summary;
}

/**
 * Looks one pending reference up. The oldest successful transaction carrying it decides the
 * receipt, once: a later transaction with the same reference changes nothing.
 */
async function lookUp(
  { db, connection, now, identity }: Omit<FindPaymentsInput, 'limit'>,
  row: PaymentReferenceRow,
  summary: FindPaymentsSummary,
): Promise<void> {
  summary.rpcCalls += 1;
  const found = await rpcCall(() => connection.getSignaturesForAddress(new PublicKey(row.reference), {}, 'confirmed'));
  // Newest first: the last successful one is the first payment. A failed transaction paid nothing.
  const first = found.filter((s) => s.err === null).at(-1);
  if (!first) return;
  summary.rpcCalls += 1;
  const tx = await rpcCall(() =>
    connection.getTransaction(first.signature as TransactionSignature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    }),
  );
  if (!tx) return; // listed but not yet readable at this node: the next run
  const judgement = validateTransfer(tx, row);
  const status = !judgement.valid ? 'invalid' : first.confirmationStatus === 'finalized' ? 'finalized' : 'confirmed';
  const settled = await db.transaction(async (dbTx) => {
    const rows = await dbTx
      .update(paymentReferences)
      .set({
        status,
        signature: first.signature,
        slot: tx.slot,
        payer: judgement.payer,
        paidAt: tx.blockTime == null ? null : new Date(tx.blockTime * 1000),
        reason: judgement.valid ? null : judgement.reason,
        attributed: isAttributed(tx, row.reference, identity),
        // A reference issued without an amount records what was paid.
        ...(row.amount === null && judgement.valid ? { amount: judgement.paid } : {}),
      })
      .where(and(eq(paymentReferences.reference, row.reference), eq(paymentReferences.status, 'pending')))
      .returning();
    for (const updated of rows) await recordPaymentEvent(dbTx, updated, now);
    return rows;
  });
  if (settled.length === 0) return;
  summary[status] += 1;
  summary.changed.push(row.reference);
}

/** The operator's view of the pass: open references, and how long the stalest has waited for a look-up. */
export interface PaymentsStatus {
  open: number;
  /** The oldest open reference's issue time. */
  oldestOpenIssuedAt: string | null;
  /** Seconds since the least recently checked open reference was looked up (or issued, if never): the pass's lag. */
  lagSeconds: number | null;
}

export async function readPaymentsStatus(db: Db, now: Date): Promise<PaymentsStatus> {
  const [row] = await db
    .select({
      open: count(),
      oldest: min(paymentReferences.issuedAt),
      stalest: sql<string | null>`min(COALESCE(${paymentReferences.checkedAt}, ${paymentReferences.issuedAt}))`,
    })
    .from(paymentReferences)
    .where(openSince(now));
  return {
    open: row?.open ?? 0,
    oldestOpenIssuedAt: row?.oldest?.toISOString() ?? null,
    lagSeconds: row?.stalest ? Math.max(0, Math.round((now.getTime() - new Date(row.stalest).getTime()) / 1000)) : null,
  };
}
