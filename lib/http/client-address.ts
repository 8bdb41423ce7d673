import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
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

/**
 * What a rate limit counts a client address as: an IPv4 address itself, an IPv6 address its
 * /64. One IPv6 subscriber is usually handed a whole /64 (and can pick any of its 2^64
 * addresses at will), so counting single IPv6 addresses would hand every such client an
 * unbounded budget (DESIGN.md "Payments and receipts": issuing routes are rate-limited).
 */
export function rateLimitSubject(address: string): string {
  const bare = address.split('%')[0]!; // a zone index (fe80::1%eth0) names the interface, not the client
  if (!isIPv6(bare)) return address;
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, as lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('::');
  const part = (text: string) => {
    const groups = text === '' ? [] : text.split(':');
    const last = groups.at(-1);
    // An embedded IPv4 address (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) is the last two groups.
    if (last?.includes('.')) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      groups.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return groups.map((g) => parseInt(g, 16).toString(16));
  };
  const left = part(head);
  if (tail === undefined) return left;
  const right = part(tail);
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
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
