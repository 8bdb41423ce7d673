import {
  createDefaultRpcTransport,
  isSolanaError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
  type RpcTransport,
} from '@solana/kit';
import { recordRpcCall, type RpcOutcome } from '@/lib/observability/metrics';

/**
 * A failure to reach the cluster at all (refused, reset, timed out); the fetch's own error is
 * its `cause`. An HTTP 5xx, or a 429 that lasted until the call's deadline, is kit's
 * `SolanaError` SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR with its status code.
 */
export class ClusterUnreachableError extends Error {
  override name = 'ClusterUnreachableError';
}

/** Waits between attempts of a call the provider answered 429 without Retry-After: doubling from this, up to the cap. */
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2000;

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

/** The JSON-RPC method a payload calls, "batch" for an array of calls (what the metrics are labelled with). */
function methodOf(payload: unknown): string {
  if (Array.isArray(payload)) return 'batch';
  const method = (payload as { method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : 'unknown';
}

/** An error in one line (name, message, socket code), what a ClusterUnreachableError says. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' && 'code' in cause ? ` (${String(cause.code)})` : '';
  return `${err.name}: ${err.message}${code}`;
}

const httpStatusOf = (err: unknown): number | null =>
  isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) ? err.context.statusCode : null;

/**
 * Kit's transport for `url`, kept in our rules (DESIGN "Operating"): every call ends within
 * `timeoutMs`, a provider's 429 is waited out (its Retry-After, else a doubling backoff) and
 * asked again while the deadline allows, a socket that cannot be opened or a call past its
 * deadline is a `ClusterUnreachableError`, and each call is counted in the metrics by method
 * and outcome. JSON-RPC batches (an array payload) go through it too.
 */
export function createResilientTransport(url: string, timeoutMs: number): RpcTransport {
  const inner = createDefaultRpcTransport({ url });
  return (async ({ payload, signal }) => {
    const method = methodOf(payload);
    const started = performance.now();
    const deadline = Date.now() + timeoutMs;
    const finish = (outcome: RpcOutcome) => recordRpcCall(method, outcome, (performance.now() - started) / 1000);
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
      try {
        const answer: unknown = await inner({ payload, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        finish('ok');
        return answer;
      } catch (err) {
        if (signal?.aborted) throw err; // our caller gave up: its reason, not ours
        const status = httpStatusOf(err);
        if (status === 429 && isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
          const wait = rateLimitWaitMs(err.context.headers.get('retry-after'), attempt, Date.now());
          if (Date.now() + wait < deadline) {
            await new Promise((resolve) => setTimeout(resolve, wait));
            continue;
          }
          finish('rate_limited');
          throw new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
            ...err.context,
            message: `HTTP 429 until the ${timeoutMs} ms deadline`,
          });
        }
        if (status !== null) {
          finish('http_error');
          throw err;
        }
        finish('unreachable');
        throw new ClusterUnreachableError(describe(err), { cause: err });
      }
    }
  }) as RpcTransport;
}
