/*
 * The route a request was served by, as metrics and logs name it: the path with its dynamic
 * segments as `{name}` (as the OpenAPI document writes them), so a metric has one series per
 * route, not one per tag. A /v1 route passes the path it declares (lib/http/v1-route.ts); the
 * others are listed here, since Next.js does not tell a handler which route matched.
 * tests/observability/route-label.test.ts fails when an observed route file (withApi,
 * observeRequest) outside app/v1 is missing from this list or listed without one.
 */

/** Every observed route handler outside app/v1, `[x]` written `{x}`; catch-alls are left to `OTHER_ROUTE`. */
export const ROUTE_PATTERNS = [
  '/.well-known/nostr.json',
  '/.well-known/webfinger',
  '/api/actions/pay/{tag}',
  '/api/avatar/{tag}',
  '/api/cron/indexer',
  '/api/cron/webhooks',
  '/api/health',
  '/api/indexer/status',
  '/api/metrics',
  '/api/ready',
  '/pay/{tag}',
] as const;

/** What a path no listed route matches is counted under (an unknown /v1 path, a catch-all). */
export const OTHER_ROUTE = 'other';

/** Patterns by number of segments, each segment a literal or null for a placeholder. */
const BY_LENGTH = new Map<number, { pattern: string; segments: (string | null)[] }[]>();
for (const pattern of ROUTE_PATTERNS) {
  const segments = pattern
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('{') ? null : s));
  const list = BY_LENGTH.get(segments.length) ?? [];
  list.push({ pattern, segments });
  BY_LENGTH.set(segments.length, list);
}

/** The route pattern `pathname` matches, or OTHER_ROUTE. */
export function routeLabel(pathname: string): string {
  const segments = pathname.split('/').slice(1);
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  for (const { pattern, segments: want } of BY_LENGTH.get(segments.length) ?? []) {
    if (want.every((w, i) => (w === null ? segments[i] !== '' : w === segments[i]))) return pattern;
  }
  return OTHER_ROUTE;
}

/** The path of a request URL, without its query (which may carry a key) and without parsing a URL object. */
export function pathnameOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme === -1 ? 0 : url.indexOf('/', scheme + 3);
  if (start === -1) return '/';
  let end = url.length;
  const query = url.indexOf('?', start);
  if (query !== -1) end = query;
  const hash = url.indexOf('#', start);
  if (hash !== -1 && hash < end) end = hash;
  return url.slice(start, end) || '/';
}
