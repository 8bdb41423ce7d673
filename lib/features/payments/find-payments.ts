import 'server-only';
import type { Signature } from '@solana/kit';
import { and, count, eq, gt, inArray, min } from 'drizzle-orm';
import { rpcCall } from '@/lib/chain/rpc';
import { signaturesForAddresses } from '@/lib/chain/signatures-batch';
import type { Db } from '@/lib/db';
import { paymentReferences } from '@/lib/db/schema';
import { logger } from '@/lib/observability/logger';
import type { ListedSignature } from '@/lib/chain/signatures-batch';
import { recordPaymentEvent } from './payment-events';
import { activePayoutAccounts, type PayoutAccount } from './payout-accounts';
import { readCursors, stalestOpenRead, writeReads, type AccountRead } from './payout-cursors';
import { firstPage, readPayoutAccount, type AccountTally, type FindContext } from './read-payout-account';

/*
 * The finding pass (DESIGN.md "Payments and receipts"), run on the indexer's cron: the payee
 * never polls the cluster. Its cost follows payees, not references: each run reads each payout
 * account that has open references once, from where the last run stopped
 * (lib/features/payments/read-payout-account.ts), and matches the references its new
 * transactions name. A thousand junk references on one payee cost what one does, and a real
 * payment is seen on the next run. A reference is open from its issue until it expires
 * (lib/features/payments/expiry.ts); a `confirmed` one stays watched until its transaction is
 * finalized.
 */

/** A `confirmed` receipt's transaction is watched for finality this long after its reference was issued. */
export const OPEN_FOR_MS = 24 * 60 * 60 * 1000;
/** First pages asked for in one JSON-RPC batch: a hundred accounts cost one HTTP round trip. */
const ACCOUNTS_PER_BATCH = 100;
/** Batches in flight at once (the provider's rate limit, not the count, bounds a run's speed). */
const BATCHES_IN_FLIGHT = 4;
/** Accounts of a batch judged at once (each with new transactions costs a getTransaction per transaction). */
const ACCOUNTS_IN_FLIGHT = 8;
/** getSignatureStatuses takes at most 256 signatures. */
const STATUSES_PER_CALL = 256;

export type FindPaymentsInput = FindContext;

export interface FindPaymentsSummary extends AccountTally {
  /** Payout accounts read. */
  accounts: number;
}

/** One pass: finality of the confirmed receipts, then every payout account with open references. */
export async function findPayments(context: FindPaymentsInput): Promise<FindPaymentsSummary> {
  const { db, cluster, now } = context;
  const summary: FindPaymentsSummary = {
    accounts: 0,
    transactions: 0,
    confirmed: 0,
    finalized: 0,
    rejected: 0,
    rpcCalls: 0,
    changed: [],
  };
  // A failed finality check waits for the next run; the payout accounts are read all the same.
  await finalizeConfirmed(context, summary).catch((err: unknown) =>
    logger.warn({ err }, 'payments: checking the finality of confirmed receipts failed'),
  );

  const payouts = await activePayoutAccounts(db, cluster.rpc, now, () => (summary.rpcCalls += 1));
  summary.accounts = payouts.length;
  const cursors = await readCursors(
    db,
    payouts.map((p) => p.account),
  );
  const reads: AccountRead[] = [];
  const readOne = async (payout: PayoutAccount, first: readonly ListedSignature[] | Error) => {
    try {
      if (first instanceof Error) throw first;
      const cursor = await readPayoutAccount(context, payout, cursors.get(payout.account), first, summary);
      reads.push({ account: payout.account, cursor, openUntil: payout.openUntil });
    } catch (err) {
      // One account's failure (the cluster briefly unreachable) waits for the next run, its cursor unmoved.
      logger.warn({ account: payout.account, err }, 'payments: reading a payout account failed');
    }
  };
  // Batches of first pages, a few in flight; the accounts of a batch judged a few at a time.
  await inParallel(chunks(payouts, ACCOUNTS_PER_BATCH), BATCHES_IN_FLIGHT, async (batch) => {
    summary.rpcCalls += batch.length;
    const pages = await signaturesForAddresses(
      cluster,
      batch.map((payout) => firstPage(payout, cursors.get(payout.account))),
    ).catch((err: unknown) => batch.map(() => (err instanceof Error ? err : new Error(String(err)))));
    await inParallel(
      batch.map((payout, i) => [payout, pages[i]!] as const),
      ACCOUNTS_IN_FLIGHT,
      ([payout, first]) => readOne(payout, first),
    );
  });
  await writeReads(db, reads, now);
  return summary;
}

/** Paid but not yet final: getSignatureStatuses for all of them, 256 a call. */
async function finalizeConfirmed(
  { db, cluster: { rpc }, now }: FindContext,
  summary: FindPaymentsSummary,
): Promise<void> {
  const unfinal = await db
    .select({ reference: paymentReferences.reference, signature: paymentReferences.signature })
    .from(paymentReferences)
    .where(
      and(
        eq(paymentReferences.status, 'confirmed'),
        gt(paymentReferences.issuedAt, new Date(now.getTime() - OPEN_FOR_MS)),
      ),
    );
  for (let i = 0; i < unfinal.length; i += STATUSES_PER_CALL) {
    const batch = unfinal.slice(i, i + STATUSES_PER_CALL).filter((row) => row.signature !== null);
    summary.rpcCalls += 1;
    const { value } = await rpcCall(() =>
      rpc.getSignatureStatuses(batch.map((row) => row.signature as Signature)).send(),
    );
    const final = batch.filter((_, j) => value[j]?.confirmationStatus === 'finalized').map((row) => row.reference);
    if (final.length === 0) continue;
    const moved = await db.transaction(async (tx) => {
      const rows = await tx
        .update(paymentReferences)
        .set({ status: 'finalized' })
        .where(and(inArray(paymentReferences.reference, final), eq(paymentReferences.status, 'confirmed')))
        .returning();
      for (const row of rows) await recordPaymentEvent(tx, row, now);
      return rows;
    });
    summary.finalized += moved.length;
    summary.changed.push(...moved.map((row) => row.reference));
  }
}

/** The operator's view of the pass: open references, and how long the stalest payout account has waited for a read. */
export interface PaymentsStatus {
  open: number;
  /** The oldest open reference's issue time. */
  oldestOpenIssuedAt: string | null;
  /** Seconds since the least recently read payout account with open references was read: the pass's lag. */
  lagSeconds: number | null;
}

export async function readPaymentsStatus(db: Db, now: Date): Promise<PaymentsStatus> {
  const [[row], stalest] = await Promise.all([
    db
      .select({ open: count(), oldest: min(paymentReferences.issuedAt) })
      .from(paymentReferences)
      .where(and(eq(paymentReferences.status, 'pending'), gt(paymentReferences.expiresAt, now))),
    stalestOpenRead(db, now),
  ]);
  return {
    open: row?.open ?? 0,
    oldestOpenIssuedAt: row?.oldest?.toISOString() ?? null,
    lagSeconds: stalest ? Math.max(0, Math.round((now.getTime() - stalest.getTime()) / 1000)) : null,
  };
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** Runs `work` over `items`, at most `inFlight` at once. */
async function inParallel<T>(items: readonly T[], inFlight: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
}
