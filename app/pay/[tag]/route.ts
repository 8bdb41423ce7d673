// GET /pay/{tag} — the profile's pay link: issues a fresh Solana Pay reference and redirects to its `solana:` URL
import { withApi, withRateLimit } from '@/lib/http/handler';
import { getIdentity, parseTagParam } from '@/lib/features/identity/get-identity';
import { issueReference, issueServices } from '@/lib/features/payments/issue-reference';

/*
 * The /@tag page is the same for every view (an ETag, a second at a CDN), so it cannot hold a
 * fresh reference itself; its pay link points here instead, and each click gets its own
 * reference, kept so that GET /v1/payments/{reference} answers for it and the finding pass
 * looks it up (DESIGN.md "Payments and receipts"). A link works without the page's script, in
 * every browser, which a client step calling POST /v1/payments would not. Never cached; counted
 * against the `payments` bucket, as POST /v1/payments is. Crawlers are kept off by robots.txt
 * and the link's rel="nofollow".
 */

export const dynamic = 'force-dynamic';

const ROUTE = '/pay/{tag}';

export const GET = withApi<{ tag: string }>(
  withRateLimit('payments', async (_req, { params, services: { db, config } }) => {
    const issued = await issueReference(issueServices(db, config, new Date()), {
      tag: parseTagParam(params.tag),
      amount: null,
      asset: 'preferred',
    });
    return new Response(null, { status: 303, headers: { Location: issued.url, 'Cache-Control': 'no-store' } });
  }),
  ROUTE,
);

/**
 * HEAD issues nothing (a link checker or a preview fetcher is no payer): 200 with no
 * Location while the tag exists, its 404 otherwise, and no chain read.
 */
export const HEAD = withApi<{ tag: string }>(async (_req, { params, services: { db } }) => {
  await getIdentity(db, parseTagParam(params.tag));
  return new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store' } });
}, ROUTE);
