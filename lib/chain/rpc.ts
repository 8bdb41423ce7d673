import { Connection, PublicKey } from '@solana/web3.js';
import { AppError } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';
import type { Config } from '@/lib/core/config';

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
 * Marks a failure to reach the cluster (refused, reset, timed out, HTTP 5xx), and a provider
 * that kept answering 429 until the call's deadline. web3.js wraps errors into new ones whose
 * message embeds the original as text, so the markers are strings that survive that
 * wrapping, not classes.
 */
const UNREACHABLE_MARKER = 'cluster-unreachable';
const RATE_LIMITED_MARKER = 'rpc-rate-limited';

/** Waits between attempts of a call the provider answered 429 without Retry-After: doubling from this, up to the cap. */
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2000;

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

function deadlineFetch(timeoutMs: number): typeof globalThis.fetch {
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
        throw new Error(`${UNREACHABLE_MARKER}: ${describe(err)}`);
      }
      if (res.status === 429) {
        await res.body?.cancel().catch(() => {});
        const wait = rateLimitWaitMs(res.headers.get('retry-after'), attempt, Date.now());
        if (Date.now() + wait >= deadline)
          throw new Error(`${RATE_LIMITED_MARKER}: HTTP 429 until the ${timeoutMs} ms deadline`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      if (res.status >= 500) {
        await res.body?.cancel().catch(() => {});
        throw new Error(`${UNREACHABLE_MARKER}: HTTP ${res.status}`);
      }
      return res;
    }
  };
}

/**
 * How long to wait after a 429: what its Retry-After says (seconds, or an HTTP date), else
 * FIRST_BACKOFF_MS doubled per attempt up to MAX_BACKOFF_MS.
 */
export function rateLimitWaitMs(retryAfter: string | null, attempt: number, now: number): number {
  const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt);
  if (!retryAfter) return backoff;
  if (/^\d{1,6}$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? backoff : Math.max(0, at - now);
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

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.message} ${describe((err as { cause?: unknown }).cause ?? '')}` : String(err);
}

/** Whether the provider kept answering 429 until the call's deadline (raw, or as rpcCall's 503 `rpc_rate_limited`). */
export function isRpcRateLimited(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'rpc_rate_limited';
  const text = errorText(err);
  return text.includes(RATE_LIMITED_MARKER) || /(?:^|Error: )429 /.test(text);
}

/**
 * Whether an error means the cluster could not answer now (unreachable, or rate limiting us),
 * as opposed to a real answer: what the indexer defers and retries.
 */
export function isClusterUnreachable(err: unknown): boolean {
  const text = errorText(err);
  return text.includes(UNREACHABLE_MARKER) || text.includes(RATE_LIMITED_MARKER) || NETWORK_FAILURE.test(text);
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

/**
 * Runs an RPC call; a provider rate limiting us past the deadline becomes AppError 503
 * `rpc_rate_limited`, a failure to reach the cluster 503 `service_unavailable`, both with
 * Retry-After; anything else (a JSON-RPC error, a bug) is rethrown as it is.
 */
export async function rpcCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isRpcRateLimited(err)) {
      logger.warn({ err }, 'RPC provider rate limiting');
      throw rpcRateLimited();
    }
    if (isClusterUnreachable(err)) {
      logger.warn({ err }, 'cluster unreachable');
      throw clusterUnavailable();
    }
    throw err;
  }
}

const programIds = new Map<string, PublicKey>();

/** The cluster connection and the tag registry's address, as configured (route handlers' view). */
export function getChain(config: Pick<Config, 'solana'>): { connection: Connection; programId: PublicKey } {
  let programId = programIds.get(config.solana.programId);
  if (!programId) {
    programId = new PublicKey(config.solana.programId);
    programIds.set(config.solana.programId, programId);
  }
  return { connection: getConnection(config), programId };
}
