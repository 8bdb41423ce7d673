import type { IncomingMessage } from 'node:http';

/*
 * `/@alice` is the page at app/profile/[tag] (a leading @ names a parallel-route slot in the
 * App Router, so it cannot be a folder). next.config.ts rewrites it for every deployment.
 * scripts/serve.ts also rewrites a page view itself before Next.js routes it: the answer is
 * the same page from the same cache entry, byte for byte, and Next.js's rewrite handling was
 * a fifth of a cached profile view's time to first byte.
 */

/** next.config.ts's rewrite: one path segment after `@`. */
export const PROFILE_REWRITE = { source: '/@:tag', destination: '/profile/:tag' } as const;

/** One segment after `@`, with or without a query; a trailing slash is left to Next.js's redirect. */
const PROFILE_VIEW = /^\/@([^/?#]+)(\?.*)?$/;

/**
 * Rewrites a browser's view of `/@tag` to `/profile/tag` in place, as PROFILE_REWRITE would.
 * Only document views (GET or HEAD without Next.js's RSC headers): client-side navigations
 * keep Next.js's own rewrite, which tells its router what it rewrote.
 */
export function rewriteProfileView(req: IncomingMessage): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  if (req.headers.rsc !== undefined || req.headers['next-router-prefetch'] !== undefined) return;
  const match = PROFILE_VIEW.exec(req.url ?? '');
  if (match) req.url = `/profile/${match[1]}${match[2] ?? ''}`;
}
