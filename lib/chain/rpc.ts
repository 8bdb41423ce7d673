import {
  address,
  createSolanaRpcFromTransport,
  isSolanaError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type Address,
  type Rpc,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';
import { AppError, answerKnownFailure, type KnownFailure } from '@/lib/core/errors';
import type { Config } from '@/lib/core/config';
import { ClusterUnreachableError, createResilientTransport } from './rpc-transport';

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
  try {
    return await call();
  } catch (thrown) {
    if (thrown instanceof AppError) throw thrown;
    throw answerKnownFailure(thrown, CLUSTER_FAILURES) ?? thrown;
  }
}

/** Kit's RPC and the transport under it. */
export interface KitClient {
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
}

/** The cluster's RPC and the tag registry's address, as configured (route handlers' view). */
export function getChain(config: Pick<Config, 'solana'>): Chain {
  return { rpc: getRpc(config), programAddress: address(config.solana.programId) };
}
