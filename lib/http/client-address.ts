import type { IncomingMessage } from 'node:http';
import type { ClientAddressSource } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';

/**
 * The header through which scripts/serve.ts hands the socket's remote address to the app
 * (Next.js gives route handlers, server actions and next-auth no access to the socket). The
 * server deletes any copy a client sent before it sets its own, so what the app reads under
 * this name always came from the socket.
 */
export const SOCKET_ADDRESS_HEADER = 'x-tag-service-socket-address';

/**
 * Set on globalThis by the server that fills SOCKET_ADDRESS_HEADER. The app trusts the header
 * only when it runs inside that server: under a bare `next start` the header could come from
 * the client, so `direct` mode then refuses to answer rather than trust it.
 */
const SOCKET_ADDRESS_SERVER = Symbol.for('identity-tag-service.socket-address-server');

/** Called by scripts/serve.ts on every request, before Next.js sees it. */
export function stampSocketAddress(req: IncomingMessage): void {
  delete req.headers[SOCKET_ADDRESS_HEADER];
  req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
}

/** Called once by scripts/serve.ts when it starts its HTTP server. */
export function markSocketAddressServer(): void {
  (globalThis as Record<symbol, unknown>)[SOCKET_ADDRESS_SERVER] = true;
}

/** Whether this process serves through scripts/serve.ts (which stamps the socket address). */
export function runsBehindSocketAddressServer(): boolean {
  return (globalThis as Record<symbol, unknown>)[SOCKET_ADDRESS_SERVER] === true;
}

/**
 * The one place that decides a request's client address, from the deployment the
 * configuration names (CLIENT_ADDRESS_SOURCE):
 * - `direct`: nothing in front of the app; the socket's peer, as scripts/serve.ts stamped it.
 *   `X-Forwarded-For` and `X-Real-IP` are client-written here and ignored.
 * - `proxy`: `hops` proxies each append the address they saw to `X-Forwarded-For`; the
 *   `hops`-th entry from the right is the one the outermost proxy saw. Fewer entries than
 *   hops means the request did not come through them.
 * - `vercel`: `x-vercel-forwarded-for`, which Vercel's edge sets and clients cannot.
 *
 * Fails closed: when the address cannot be known, it throws instead of falling back on
 * anything a client can write.
 */
export function clientAddress(headers: Headers, config: ClientAddressSource): string {
  switch (config.source) {
    case 'direct': {
      const stamped = headers.get(SOCKET_ADDRESS_HEADER);
      if (!runsBehindSocketAddressServer() || !stamped)
        throw unknownAddress('direct', 'the app is not running under scripts/serve.ts');
      return normalize(stamped);
    }
    case 'proxy': {
      const entries = (headers.get('x-forwarded-for') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (entries.length < config.hops)
        throw unknownAddress('proxy', `x-forwarded-for had fewer than ${config.hops} entries`);
      return normalize(entries[entries.length - config.hops]!);
    }
    case 'vercel': {
      const forwarded = headers.get('x-vercel-forwarded-for')?.split(',')[0]?.trim();
      if (!forwarded) throw unknownAddress('vercel', 'x-vercel-forwarded-for is missing');
      return normalize(forwarded);
    }
  }
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) counts as `127.0.0.1`. */
function normalize(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

const reported = new Set<string>();

function unknownAddress(mode: string, why: string): AppError {
  // Once per mode and reason: a client bypassing the proxy must not flood the log.
  const line = `client address: cannot be determined in ${mode} mode (${why}); requests are refused`;
  if (!reported.has(line)) {
    reported.add(line);
    logger.error(line);
  }
  if (mode === 'proxy') return new AppError('forbidden', 'Requests must come through the configured proxy.');
  // A deployment that cannot tell clients apart cannot rate-limit them: refuse (503, not a
  // 500), and say in the log which setting is wrong.
  return new AppError('service_unavailable', 'The service cannot identify clients in its current configuration.');
}
