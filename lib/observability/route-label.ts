/*
 * The route a request was served by, as metrics and logs name it: the path with its dynamic
 * segments as `{name}` (as the OpenAPI document writes them), so a metric has one series per
 * route, not one per tag. Next.js does not tell a route handler which route matched, so the
 * app's routes are listed here; tests/observability/route-label.test.ts fails when a route
 * file under app/ is missing from this list or listed without one.
 */

/** Every route handler under app/, `[x]` written `{x}`; catch-alls are left to `OTHER_ROUTE`. */
export const ROUTE_PATTERNS = [
  '/actions.json',
  '/api/actions/pay/{tag}',
  '/api/avatar/{tag}',
  '/api/cron/indexer',
  '/api/health',
  '/api/indexer/status',
  '/api/internal/revalidate',
  '/api/metrics',
  '/api/ready',
  '/v1/auth/challenge',
  '/v1/auth/session',
  '/v1/auth/verify',
  '/v1/availability/{tag}',
  '/v1/events',
  '/v1/identity/{tag}',
  '/v1/identity/{tag}/release',
  '/v1/identity/{tag}/transfer',
  '/v1/identity/{tag}/transfer/accept',
  '/v1/identity/{tag}/transfer/cancel',
  '/v1/identity/{tag}/wallet',
  '/v1/openapi.json',
  '/v1/primary',
  '/v1/register',
  '/v1/resolve',
  '/v1/resolve/{tag}',
  '/v1/reverse',
  '/v1/reverse/{address}',
  '/v1/sync',
] as const;

/** What a path no listed route matches is counted under (an unknown /v1 path, a catch-all). */
export const OTHER_ROUTE = 'other';

/** Patterns by number of segments, each segment a literal or null for a placeholder. */
const BY_LENGTH = new Map<number, { pattern: string; segments: (string | null)[] }[]>();
for (const pattern of ROUTE_PATTERNS) {
  const segments = pattern.split('/').slice(1).map((s) => (s.startsWith('{') ? null : s));
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
