// GET /pay/{tag} — the profile's pay link: issues a fresh Solana Pay reference and redirects to its `solana:` URL
import { Keypair } from '@solana/web3.js';
import { withApi, withRateLimit } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { issueOpenReference } from '@/lib/features/payments/issue-reference';

/*
 * The /@tag page is the same for every view (an ETag, a second at a CDN), so it cannot hold a
 * fresh reference itself; its pay link points here instead, and each click gets its own
 * reference, kept so that GET /v1/payments/{reference} answers for it and the finding pass
 * looks it up (DESIGN.md "Payments and receipts"). A link works without the page's script, in
 * every browser, which a client step calling POST /v1/payments would not. Never cached; counted
 * against the `payments` bucket, as POST /v1/payments is.
 */

export const dynamic = 'force-dynamic';

const ROUTE = '/pay/{tag}';

export const GET = withApi<{ tag: string }>(
  withRateLimit('payments', async (_req, { params, services: { db, config } }) => {
    const url = await issueOpenReference(
      {
        db,
        connection: getChain(config).connection,
        now: new Date(),
        newReference: () => Keypair.generate().publicKey,
      },
      parseTagParam(params.tag),
      config.solana.cluster,
    );
    return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': 'no-store' } });
  }),
  ROUTE,
);
