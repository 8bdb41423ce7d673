import type { ConfirmedSignatureInfo, Connection, PublicKey, VersionedTransactionResponse } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { MAX_SUPPORTED_TRANSACTION_VERSION } from './decode-transaction';

/*
 * How a run reads the chain (DESIGN "Indexer"): the program's signatures since the cursor, then
 * their transactions at `finalized`, in JSON-RPC batches with a one-by-one fallback and retries
 * within the run. The run loop that decides what to do with them is ./run-indexer.ts.
 */

/** getTransaction calls in flight at once. */
export const INDEXER_FETCH_CONCURRENCY = 16;
/**
 * getTransaction calls per JSON-RPC batch request, and batch requests in flight. One HTTP
 * request for 50 transactions instead of 50: on localnet the RPC side of a run is 2.5 to 4
 * times faster. A batch that fails as a whole (one unreadable transaction fails web3.js's
 * batch; some providers refuse batches) is asked again one transaction at a time.
 */
export const INDEXER_FETCH_BATCH = { size: 50, inFlight: 2 } as const;
/**
 * getTransaction attempts per transaction within one run, and the first pause between them
 * (doubling): 250 ms, then 500 ms. A node behind a load balancer that has not caught up with
 * the signature it just listed usually has a moment later; beyond that the next run retries.
 */
export const INDEXER_FETCH_RETRY = { attempts: 3, firstDelayMs: 250 } as const;

/** What a listed transaction's fetch gave: the transaction, null (not found yet), an error, or nothing asked (a failed one). */
export type Fetched = VersionedTransactionResponse | null | { error: unknown } | 'not-needed';

// JSON-RPC -32015: "Transaction version (N) is not supported by the requesting client".
// Asking again gives the same answer: this indexer cannot read it, however long it waits.
const UNSUPPORTED_TRANSACTION_VERSION = -32015;

/** Whether the node refused the transaction for a version this indexer cannot read. */
export function isUnsupportedVersion(error: unknown): boolean {
  return rpcErrorCode(error) === UNSUPPORTED_TRANSACTION_VERSION;
}

/** Every signature of the program newer than `until`, oldest first, paging back from the newest. */
export async function listSince(
  connection: Connection,
  programId: PublicKey,
  until: string | null,
  pageSize: number,
): Promise<ConfirmedSignatureInfo[]> {
  const newestFirst: ConfirmedSignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpcCall(() =>
      connection.getSignaturesForAddress(
        programId,
        { until: until ?? undefined, before, limit: pageSize },
        'finalized',
      ),
    );
    newestFirst.push(...page);
    if (page.length < pageSize) break;
    before = page[page.length - 1]!.signature;
  }
  return newestFirst.reverse();
}

/**
 * The batch's transactions at `finalized`, a few in flight at once; failed ones are not
 * fetched. Those the node does not give (null, or an error, the cluster unreachable
 * included) are asked again after a pause that doubles, up to `retry.attempts` in all; what is
 * still missing then is deferred by the caller. Stops retrying once the run has ended.
 */
export async function fetchBatch(
  connection: Connection,
  batch: ConfirmedSignatureInfo[],
  retry: { attempts: number; firstDelayMs: number },
  run: { stopped: boolean },
): Promise<{ fetched: Fetched[]; retried: number }> {
  const fetched: Fetched[] = batch.map(() => 'not-needed');
  let pending = batch.flatMap((info, i) => (info.err ? [] : [i]));
  let retried = 0;
  for (let attempt = 1; ; attempt++) {
    await fetchEach(connection, batch, pending, fetched);
    pending = pending.filter((i) => isWorthAskingAgain(fetched[i]!));
    if (pending.length === 0 || attempt >= retry.attempts || run.stopped) break;
    await new Promise((r) => setTimeout(r, retry.firstDelayMs * 2 ** (attempt - 1)));
    if (run.stopped) break;
    retried += pending.length;
  }
  return { fetched, retried };
}

async function fetchEach(
  connection: Connection,
  batch: ConfirmedSignatureInfo[],
  indexes: number[],
  into: Fetched[],
): Promise<void> {
  const chunks: number[][] = [];
  for (let i = 0; i < indexes.length; i += INDEXER_FETCH_BATCH.size)
    chunks.push(indexes.slice(i, i + INDEXER_FETCH_BATCH.size));
  await forEachConcurrently(chunks, INDEXER_FETCH_BATCH.inFlight, async (chunk) => {
    try {
      const answers = await connection.getTransactions(
        chunk.map((index) => batch[index]!.signature),
        { commitment: 'finalized', maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION },
      );
      if (answers.length !== chunk.length) throw new Error(`the node answered ${answers.length} of ${chunk.length}`);
      chunk.forEach((index, j) => (into[index] = answers[j]!));
    } catch {
      await fetchOneByOne(connection, batch, chunk, into);
    }
  });
}

/** Each transaction on its own request, a few in flight: what a failed batch falls back to, item by item. */
async function fetchOneByOne(
  connection: Connection,
  batch: ConfirmedSignatureInfo[],
  indexes: number[],
  into: Fetched[],
): Promise<void> {
  await forEachConcurrently(indexes, INDEXER_FETCH_CONCURRENCY, async (index) => {
    try {
      into[index] = await connection.getTransaction(batch[index]!.signature, {
        commitment: 'finalized',
        maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION,
      });
    } catch (err) {
      into[index] = { error: err };
    }
  });
}

/** `work` on every item, in order of start, at most `limit` at once (a pool of workers taking the next item). */
async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function isWorthAskingAgain(fetched: Fetched): boolean {
  if (fetched === null) return true;
  if (fetched === 'not-needed' || !('error' in fetched)) return false;
  return !isUnsupportedVersion(fetched.error);
}

function rpcErrorCode(err: unknown): unknown {
  return err && typeof err === 'object' && 'code' in err ? (err as { code: unknown }).code : undefined;
}
