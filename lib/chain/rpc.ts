import {
  address,
  createSolanaRpcFromTransport,
  isSolanaError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
  type Address,
  type Rpc,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';
import { Connection, PublicKey } from '@solana/web3.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError, answerKnownFailure, type KnownFailure } from '@/lib/core/errors';
import type { Config } from '@/lib/core/config';
import { ClusterUnreachableError, createResilientTransport, describe, rateLimitWaitMs } from './rpc-transport';

export { ClusterUnreachableError, rateLimitWaitMs } from './rpc-transport';

/** The cluster's JSON-RPC API as kit types it. */
export type SolanaRpc = Rpc<SolanaRpcApi>;

/** Where `solana-test-validator` and our localnet listen when SOLANA_RPC_URL is unset. */
export const DEFAULT_RPC_URL = 'http://127.0.0.1:8899';
/** Seconds a client is told to wait when the cluster cannot be reached. */
export const RPC_RETRY_AFTER_SECONDS = 5;
/**
 * The deadline of one JSON-RPC call, 429s waited out included: 10 s, far above a healthy
 * provider's answer (tens of milliseconds), so that it only catches a cluster that is
 * unreachable or throttling us; the caller then gets 503 within seconds, never a hung request.
 */
export const RPC_TIMEOUT_MS = 10_000;

/**
 * The transport failure the current `rpcCall` met. web3.js rethrows some of them (getAccountInfo,
 * getBalance, getLatestBlockhash) as new Errors holding only their text, so the transport
 * records the typed error here too, and `rpcCall` judges that one.
 */
const transportFailure = new AsyncLocalStorage<{ failure?: Error }>();

function failed<E extends Error>(error: E): E {
  const store = transportFailure.getStore();
  if (store) store.failure = error;
  return error;
}

function httpError(res: Response, message: string): SolanaError {
  return new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
    statusCode: res.status,
    headers: res.headers,
    message,
  });
}

const connections = new Map<string, Connection>();

/**
 * The process's one `Connection` per RPC URL (DESIGN "Configuration": SOLANA_RPC_URL, else the
 * local validator's address). Every call has a deadline: a cluster that does not answer
 * becomes a 503 for our caller, not a hung request. A provider's 429 is waited out (its
 * Retry-After, else a doubling backoff) and asked again while the deadline allows.
 */
export function getConnection(config: Pick<Config, 'solana'>): Connection {
  const url = config.solana.rpcUrl ?? DEFAULT_RPC_URL;
  let connection = connections.get(url);
  if (!connection) {
    connection = createConnection(url, RPC_TIMEOUT_MS);
    connections.set(url, connection);
  }
  return connection;
}

/** A `Connection` whose HTTP calls end within `timeoutMs` (429s retried inside it) and report unreachability or rate limiting. */
export function createConnection(url: string, timeoutMs: number): Connection {
  return new Connection(url, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: deadlineFetch(timeoutMs),
  });
}

/**
 * fetch with the deadline, the 429 waits and the failure recording of every call of this
 * module; also what JSON-RPC batches are sent with (lib/chain/signatures-batch.ts).
 */
export function deadlineFetch(timeoutMs: number): typeof globalThis.fetch {
  return async (input, init) => {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await globalThis.fetch(input, {
          ...init,
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
      } catch (err) {
        throw failed(new ClusterUnreachableError(describe(err), { cause: err }));
      }
      if (res.status === 429) {
        await res.body?.cancel().catch(() => {});
        const wait = rateLimitWaitMs(res.headers.get('retry-after'), attempt, Date.now());
        if (Date.now() + wait >= deadline) throw failed(httpError(res, `HTTP 429 until the ${timeoutMs} ms deadline`));
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      if (res.status >= 500) {
        await res.body?.cancel().catch(() => {});
        throw failed(httpError(res, `HTTP ${res.status}`));
      }
      return res;
    }
  };
}

/** Node's codes for a socket that could not be opened or was lost (a fetch failure's `cause.code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
/** The DOMException names of a fetch that was aborted or timed out. */
const ABORTED = new Set(['TimeoutError', 'AbortError']);

/** `err` and what it wraps (`cause`), outermost first. */
function* chain(err: unknown): Generator<unknown> {
  for (let depth = 0; err !== undefined && err !== null && depth < 5; depth++) {
    yield err;
    err = (err as { cause?: unknown }).cause;
  }
}

function httpStatusOf(err: unknown): number | null {
  return isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) ? err.context.statusCode : null;
}

function isUnreachable(err: unknown): boolean {
  if (err instanceof ClusterUnreachableError) return true;
  const status = httpStatusOf(err);
  if (status !== null) return status === 429 || status >= 500;
  if (!(err instanceof Error)) return false;
  if (ABORTED.has(err.name)) return true;
  // The Fetch standard rejects with a TypeError on a network error; Node's fetch adds the cause.
  if (err instanceof TypeError && err.cause instanceof Error) return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'));
}

/** Whether the provider kept answering 429 until the call's deadline (raw, or as rpcCall's 503 `rpc_rate_limited`). */
export function isRpcRateLimited(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'rpc_rate_limited';
  return [...chain(err)].some((e) => httpStatusOf(e) === 429);
}

/**
 * Whether an error means the cluster could not answer now (unreachable, or rate limiting us),
 * as opposed to a real answer: what the indexer defers and retries. Judged by type and code
 * (ours, kit's SolanaError, Node's socket codes), never by message text.
 */
export function isClusterUnreachable(err: unknown): boolean {
  return [...chain(err)].some(isUnreachable);
}

/** The AppError a caller gets when the cluster cannot be reached: 503 with Retry-After. */
export function clusterUnavailable(): AppError {
  return new AppError('service_unavailable', 'The Solana cluster cannot be reached right now; try again shortly.', {
    'Retry-After': String(RPC_RETRY_AFTER_SECONDS),
  });
}

/** The AppError a caller gets when the RPC provider rate-limits us past the deadline: 503 with Retry-After. */
export function rpcRateLimited(): AppError {
  return new AppError('rpc_rate_limited', 'The Solana RPC provider is rate limiting this service; try again shortly.', {
    'Retry-After': String(RPC_RETRY_AFTER_SECONDS),
  });
}

/** What rpcCall recognises, in this order: the provider's 429s past the deadline, then any failure to reach the cluster. */
const CLUSTER_FAILURES: readonly KnownFailure[] = [
  { is: isRpcRateLimited, warning: 'RPC provider rate limiting', answer: rpcRateLimited },
  { is: isClusterUnreachable, warning: 'cluster unreachable', answer: clusterUnavailable },
];

/**
 * Runs an RPC call; a provider rate limiting us past the deadline becomes AppError 503
 * `rpc_rate_limited`, a failure to reach the cluster 503 `service_unavailable`, both with
 * Retry-After; anything else (a JSON-RPC error, a bug) is rethrown as it is.
 */
export async function rpcCall<T>(call: () => Promise<T>): Promise<T> {
  const store: { failure?: Error } = {};
  try {
    return await transportFailure.run(store, call);
  } catch (thrown) {
    if (thrown instanceof AppError) throw thrown;
    // The error itself when it says what happened, else what the transport recorded of it.
    const err = isClusterUnreachable(thrown) ? thrown : (store.failure ?? thrown);
    throw answerKnownFailure(err, CLUSTER_FAILURES) ?? thrown;
  }
}

const programIds = new Map<string, PublicKey>();

interface KitClient {
  transport: RpcTransport;
  rpc: SolanaRpc;
}
const kitClients = new Map<string, KitClient>();

function kitClientOf(config: Pick<Config, 'solana'>): KitClient {
  const url = config.solana.rpcUrl ?? DEFAULT_RPC_URL;
  let client = kitClients.get(url);
  if (!client) {
    client = createKitClient(url, RPC_TIMEOUT_MS);
    kitClients.set(url, client);
  }
  return client;
}

/** Kit's RPC over our transport (lib/chain/rpc-transport.ts) for `url`, with its deadline. */
export function createKitClient(url: string, timeoutMs: number): KitClient {
  const transport = createResilientTransport(url, timeoutMs);
  return { transport, rpc: createSolanaRpcFromTransport(transport) };
}

/**
 * The process's one kit RPC per URL (DESIGN "Configuration": SOLANA_RPC_URL, else the local
 * validator's address), every call through the resilient transport.
 */
export function getRpc(config: Pick<Config, 'solana'>): SolanaRpc {
  return kitClientOf(config).rpc;
}

/** The transport under `getRpc`, for what kit's RPC cannot say (a JSON-RPC batch). */
export function getRpcTransport(config: Pick<Config, 'solana'>): RpcTransport {
  return kitClientOf(config).transport;
}

/** The cluster and the tag registry's address, as configured (route handlers' view). */
export interface Chain {
  rpc: SolanaRpc;
  programAddress: Address;
  /** @deprecated web3.js v1, while the server moves to kit: use `rpc`. */
  connection: Connection;
  /** @deprecated web3.js v1, while the server moves to kit: use `programAddress`. */
  programId: PublicKey;
}

/** The cluster connection and the tag registry's address, as configured (route handlers' view). */
export function getChain(config: Pick<Config, 'solana'>): Chain {
  let programId = programIds.get(config.solana.programId);
  if (!programId) {
    programId = new PublicKey(config.solana.programId);
    programIds.set(config.solana.programId, programId);
  }
  return {
    rpc: getRpc(config),
    programAddress: address(config.solana.programId),
    connection: getConnection(config),
    programId,
  };
}
