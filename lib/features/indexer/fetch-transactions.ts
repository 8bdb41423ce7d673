import {
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  type Address,
  type RpcTransport,
  type Signature,
} from '@solana/kit';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { listedSignature, type ListedSignature } from '@/lib/chain/signatures-batch';
import { MAX_SUPPORTED_TRANSACTION_VERSION, type TransactionForIndexing } from './decode-transaction';

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
 * times faster. A batch that fails as a whole (an item answered with an error; some providers
 * refuse batches) is asked again one transaction at a time.
 */
export const INDEXER_FETCH_BATCH = { size: 50, inFlight: 2 } as const;
/**
 * getTransaction attempts per transaction within one run, and the first pause between them
 * (doubling): 250 ms, then 500 ms. A node behind a load balancer that has not caught up with
 * the signature it just listed usually has a moment later; beyond that the next run retries.
 */
export const INDEXER_FETCH_RETRY = { attempts: 3, firstDelayMs: 250 } as const;

/** What a listed transaction's fetch gave: the transaction, null (not found yet), an error, or nothing asked (a failed one). */
export type Fetched = TransactionForIndexing | null | { error: unknown } | 'not-needed';

/**
 * Whether the node refused the transaction for a version this indexer cannot read ("Transaction
 * version (N) is not supported by the requesting client"). Asking again gives the same answer:
 * this indexer cannot read it, however long it waits.
 */
export function isUnsupportedVersion(error: unknown): boolean {
  return isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION);
}

/** What the indexer asks of getTransaction: the `json` encoding, every version it reads. */
const GET_TRANSACTION = {
  encoding: 'json',
  maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION,
} as const;

/** The RPC and, for JSON-RPC batches, the transport under it. */
export interface FetchClient {
  rpc: SolanaRpc;
  transport: RpcTransport;
}

/** One transaction through kit's RPC at `commitment`, its slot and time as numbers; null when the node has none. */
export async function fetchTransaction(
  rpc: SolanaRpc,
  signature: string,
  commitment: 'confirmed' | 'finalized',
): Promise<TransactionForIndexing | null> {
  const answer = await rpc.getTransaction(signature as Signature, { ...GET_TRANSACTION, commitment }).send();
  return answer && withNumbers(answer);
}

/** An answer with its slot and block time as numbers (the two the indexer stores). */
function withNumbers<T extends { slot: bigint | number; blockTime: bigint | number | null }>(
  answer: T,
): Omit<T, 'slot' | 'blockTime'> & { slot: number; blockTime: number | null } {
  return {
    ...answer,
    slot: Number(answer.slot),
    blockTime: answer.blockTime === null ? null : Number(answer.blockTime),
  };
}

/** Every signature of the program newer than `until`, oldest first, paging back from the newest. */
export async function listSince(
  rpc: SolanaRpc,
  programAddress: Address,
  until: string | null,
  pageSize: number,
): Promise<ListedSignature[]> {
  const newestFirst: ListedSignature[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpcCall(() =>
      rpc
        .getSignaturesForAddress(programAddress, {
          commitment: 'finalized',
          limit: pageSize,
          ...(until ? { until: until as Signature } : {}),
          ...(before ? { before: before as Signature } : {}),
        })
        .send(),
    );
    newestFirst.push(...page.map(listedSignature));
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
  client: FetchClient,
  batch: ListedSignature[],
  retry: { attempts: number; firstDelayMs: number },
  run: { stopped: boolean },
): Promise<{ fetched: Fetched[]; retried: number }> {
  const fetched: Fetched[] = batch.map(() => 'not-needed');
  let pending = batch.flatMap((info, i) => (info.err ? [] : [i]));
  let retried = 0;
  for (let attempt = 1; ; attempt++) {
    await fetchEach(client, batch, pending, fetched);
    pending = pending.filter((i) => isWorthAskingAgain(fetched[i]!));
    if (pending.length === 0 || attempt >= retry.attempts || run.stopped) break;
    await new Promise((r) => setTimeout(r, retry.firstDelayMs * 2 ** (attempt - 1)));
    if (run.stopped) break;
    retried += pending.length;
  }
  return { fetched, retried };
}

async function fetchEach(
  client: FetchClient,
  batch: ListedSignature[],
  indexes: number[],
  into: Fetched[],
): Promise<void> {
  const chunks: number[][] = [];
  for (let i = 0; i < indexes.length; i += INDEXER_FETCH_BATCH.size)
    chunks.push(indexes.slice(i, i + INDEXER_FETCH_BATCH.size));
  await forEachConcurrently(chunks, INDEXER_FETCH_BATCH.inFlight, async (chunk) => {
    try {
      const answers = await fetchInOneBatch(
        client.transport,
        chunk.map((index) => batch[index]!.signature),
      );
      chunk.forEach((index, j) => (into[index] = answers[j]!));
    } catch {
      await fetchOneByOne(client.rpc, batch, chunk, into);
    }
  });
}

/** getTransaction for every signature in one JSON-RPC batch; throws unless every item has its answer. */
async function fetchInOneBatch(
  transport: RpcTransport,
  signatures: string[],
): Promise<(TransactionForIndexing | null)[]> {
  const payload = signatures.map((signature, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'getTransaction',
    params: [signature, { ...GET_TRANSACTION, commitment: 'finalized' }],
  }));
  const answer: unknown = await transport({ payload });
  if (!Array.isArray(answer)) throw new Error('the node did not answer the batch as a batch');
  const byId = new Map(
    (answer as { id?: unknown; result?: unknown; error?: unknown }[]).map((item) => [item?.id, item]),
  );
  return signatures.map((_, id) => {
    const item = byId.get(id);
    if (!item || item.error !== undefined || item.result === undefined)
      throw new Error(`the node answered no transaction for item ${id}`);
    return item.result as TransactionForIndexing | null;
  });
}

/** Each transaction on its own request, a few in flight: what a failed batch falls back to, item by item. */
async function fetchOneByOne(
  rpc: SolanaRpc,
  batch: ListedSignature[],
  indexes: number[],
  into: Fetched[],
): Promise<void> {
  await forEachConcurrently(indexes, INDEXER_FETCH_CONCURRENCY, async (index) => {
    try {
      into[index] = await fetchTransaction(rpc, batch[index]!.signature, 'finalized');
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
