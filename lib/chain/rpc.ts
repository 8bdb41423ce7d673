import { Connection, PublicKey } from '@solana/web3.js';
import { AppError } from '@/lib/errors';
import { logger } from '@/lib/observability/logger';
import type { Config } from '@/lib/config';

/** Where `solana-test-validator` and our localnet listen when SOLANA_RPC_URL is unset. */
export const DEFAULT_RPC_URL = 'http://127.0.0.1:8899';
/** Seconds a client is told to wait when the cluster cannot be reached. */
export const RPC_RETRY_AFTER_SECONDS = 5;

/**
 * Marks a failure to reach the cluster (refused, reset, timed out, HTTP 429 or 5xx). web3.js
 * wraps errors into new ones whose message embeds the original as text, so the marker is a
 * string that survives that wrapping, not a class.
 */
const UNREACHABLE_MARKER = 'cluster-unreachable';

const connections = new Map<string, Connection>();

/**
 * The process's one `Connection` per RPC URL (DESIGN "Configuration": SOLANA_RPC_URL, else the
 * local validator's address). Every call has a deadline, and 429s are not retried in place:
 * a cluster that does not answer becomes a 503 for our caller, not a hung request.
 */
export function getConnection(config: Pick<Config, 'solana' | 'rpcTimeoutMs'>): Connection {
  const url = config.solana.rpcUrl ?? DEFAULT_RPC_URL;
  const key = `${url}#${config.rpcTimeoutMs}`;
  let connection = connections.get(key);
  if (!connection) {
    connection = createConnection(url, config.rpcTimeoutMs);
    connections.set(key, connection);
  }
  return connection;
}

/** A `Connection` whose HTTP calls time out after `timeoutMs` and report unreachability. */
export function createConnection(url: string, timeoutMs: number): Connection {
  return new Connection(url, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: deadlineFetch(timeoutMs),
  });
}

function deadlineFetch(timeoutMs: number): typeof globalThis.fetch {
  return async (input, init) => {
    let res: Response;
    try {
      res = await globalThis.fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new Error(`${UNREACHABLE_MARKER}: ${describe(err)}`);
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`${UNREACHABLE_MARKER}: HTTP ${res.status}`);
    }
    return res;
  };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' && 'code' in cause ? ` (${String(cause.code)})` : '';
  return `${err.name}: ${err.message}${code}`;
}

// Also recognised from connections that were not made here (tests, scripts).
const NETWORK_FAILURE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_|fetch failed|socket hang up|TimeoutError|AbortError|(?:^|Error: )(?:429|5\d\d) /;

/** Whether an error means the cluster could not be reached, as opposed to a real answer. */
export function isClusterUnreachable(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${describe((err as { cause?: unknown }).cause ?? '')}` : String(err);
  return text.includes(UNREACHABLE_MARKER) || NETWORK_FAILURE.test(text);
}

/** The AppError a caller gets when the cluster cannot be reached: 503 with Retry-After. */
export function clusterUnavailable(): AppError {
  return new AppError('service_unavailable', 'The Solana cluster cannot be reached right now; try again shortly.', {
    'Retry-After': String(RPC_RETRY_AFTER_SECONDS),
  });
}

/**
 * Runs an RPC call; a failure to reach the cluster becomes AppError 503 `service_unavailable`
 * with Retry-After, anything else (a JSON-RPC error, a bug) is rethrown as it is.
 */
export async function rpcCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isClusterUnreachable(err)) {
      logger.warn({ err }, 'cluster unreachable');
      throw clusterUnavailable();
    }
    throw err;
  }
}

const programIds = new Map<string, PublicKey>();

/** The cluster connection and the tag registry's address, as configured (route handlers' view). */
export function getChain(config: Pick<Config, 'solana' | 'rpcTimeoutMs'>): { connection: Connection; programId: PublicKey } {
  let programId = programIds.get(config.solana.programId);
  if (!programId) {
    programId = new PublicKey(config.solana.programId);
    programIds.set(config.solana.programId, programId);
  }
  return { connection: getConnection(config), programId };
}
