import 'server-only';
import type { Address, Signature } from '@solana/kit';
import { and, eq, inArray } from 'drizzle-orm';
import { rpcCall } from '@/lib/chain/rpc';
import {
  listedSignature,
  type BatchClient,
  type ListedSignature,
  type SignaturesRequest,
} from '@/lib/chain/signatures-batch';
import type { Db } from '@/lib/db';
import { paymentReferences } from '@/lib/db/schema';
import { logger } from '@/lib/observability/logger';
import type { PayoutAccount } from './payout-accounts';
import type { PayoutCursor } from './payout-cursors';
import { judgedInTime, reject, settle } from './settle';
import { accountKeysOf, validateTransfer, type PaymentTransaction } from './validate-transfer';

/*
 * One payout account's turn in the finding pass: its signatures since the cursor (one
 * getSignaturesForAddress, asked in a batch with the other accounts'; more pages only when over
 * a thousand transactions arrived), then,
 * oldest first, each successful transaction read (getTransaction) and matched to the pending
 * references it names. The cursor moves past what was judged, and no further.
 */

/** A node answers at most 1,000 signatures a page. */
const PAGE = 1000;
/** Pages read per account per run: past them the pass moves on (and says so), so one flooded account cannot hold up the run. */
const MAX_PAGES = 10;
/**
 * Transactions read (getTransaction) per account per run: a payout wallet that is also busy
 * otherwise (an exchange's, say) catches up over several runs instead of spending the run's
 * budget, and the other payees' payments are found on time meanwhile.
 */
const MAX_READ_PER_RUN = 100;
/** Block times are the cluster's estimate, issue times ours: a transaction this much older than the first open issue is still read. */
const CLOCK_SLACK_MS = 60_000;

/** The cluster the pass reads: kit's RPC, and the transport its batched first pages are sent through (lib/chain/signatures-batch.ts). */
export type FindingCluster = BatchClient;

export interface FindContext {
  db: Db;
  cluster: FindingCluster;
  now: Date;
  /** The service identity's address: a payment carrying its signed memo is `attributed`. */
  identity: Address;
}

export interface AccountTally {
  rpcCalls: number;
  transactions: number;
  confirmed: number;
  finalized: number;
  rejected: number;
  changed: string[];
}

/** The first page's request of an account: what the pass asks for all accounts at once (lib/chain/signatures-batch.ts). */
export const firstPage = (payout: PayoutAccount, cursor: PayoutCursor | undefined): SignaturesRequest => ({
  address: payout.account,
  until: cursor?.signature,
  limit: PAGE,
});

/**
 * The account's signatures after `cursor`, oldest first, down to the first open issue at most;
 * `first` is the first page, already asked for.
 */
async function newSignatures(
  { cluster: { rpc } }: FindContext,
  payout: PayoutAccount,
  cursor: PayoutCursor | undefined,
  first: readonly ListedSignature[],
  tally: AccountTally,
): Promise<ListedSignature[]> {
  const listed: ListedSignature[] = [];
  let before: Signature | undefined;
  for (let page = 1; ; page += 1) {
    if (page > 1) tally.rpcCalls += 1;
    const batch =
      page === 1
        ? first
        : (
            await rpcCall(() =>
              rpc
                .getSignaturesForAddress(payout.account as Address, {
                  ...(cursor ? { until: cursor.signature as Signature } : {}),
                  ...(before ? { before } : {}),
                  limit: PAGE,
                  commitment: 'confirmed',
                })
                .send(),
            )
          ).map(listedSignature);
    listed.push(...batch);
    const oldest = batch.at(-1);
    if (batch.length < PAGE || !oldest || isBefore(oldest, payout)) break;
    if (page === MAX_PAGES) {
      logger.warn(
        { account: payout.account, signatures: listed.length },
        'payments: a payout account listed more new transactions than a run reads; the older ones are skipped',
      );
      break;
    }
    before = oldest.signature as Signature;
  }
  return listed.reverse();
}

const isBefore = (info: ListedSignature, payout: PayoutAccount) =>
  info.blockTime != null && info.blockTime * 1000 < payout.since.getTime() - CLOCK_SLACK_MS;

/** Judges one transaction for every pending reference it names. */
async function judge(
  { db, now, identity }: FindContext,
  tx: PaymentTransaction,
  listed: ListedSignature,
  tally: AccountTally,
): Promise<void> {
  const keys = [...new Set(accountKeysOf(tx))];
  const named = await db
    .select()
    .from(paymentReferences)
    .where(and(inArray(paymentReferences.reference, keys), eq(paymentReferences.status, 'pending')));
  for (const row of named) {
    const judgement = judgedInTime(row, tx, validateTransfer(tx, row));
    if (!judgement.valid) {
      await reject(db, row.reference, { signature: listed.signature, reason: judgement.reason });
      tally.rejected += 1;
      continue;
    }
    const status = await settle(db, row, { tx, listed, paid: judgement.paid, payer: judgement.payer }, identity, now);
    if (status === null) continue;
    tally[status] += 1;
    tally.changed.push(row.reference);
  }
}

/**
 * Judges one payout account's new transactions, from the first page of its signatures (asked
 * for with every other account's); the cursor it got to (null: nothing new judged).
 */
export async function readPayoutAccount(
  context: FindContext,
  payout: PayoutAccount,
  cursor: PayoutCursor | undefined,
  first: readonly ListedSignature[],
  tally: AccountTally,
): Promise<PayoutCursor | null> {
  if (first.length === 0) return null;
  const listed = await newSignatures(context, payout, cursor, first, tally);
  let judged: PayoutCursor | null = null;
  let read = 0;
  for (const info of listed) {
    // A failed transaction paid nothing; one older than every open reference cannot pay them.
    if (info.err === null && !isBefore(info, payout)) {
      if (read === MAX_READ_PER_RUN) break; // the rest, from here, on the next run
      read += 1;
      tally.rpcCalls += 1;
      const tx = await rpcCall(() =>
        context.cluster.rpc
          .getTransaction(info.signature as Signature, {
            encoding: 'json',
            commitment: 'confirmed',
            maxSupportedTransactionVersion: 0,
          })
          .send(),
      );
      if (!tx) break; // listed but not yet readable at this node: from this one on, the next run
      tally.transactions += 1;
      await judge(context, tx, info, tally);
    }
    judged = { signature: info.signature, slot: info.slot };
  }
  return judged;
}
