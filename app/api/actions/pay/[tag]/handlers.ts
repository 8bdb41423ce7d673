// The pay Action's handlers (GET /api/actions/pay/{tag}), bound to services by the caller:
// route.ts binds the process's own, tests/support/in-process.ts a test's own.
import { Keypair } from '@solana/web3.js';
import { PUBLIC_READ_CACHE_CONTROL } from '@/lib/http/cors';
import { json, withApi, withRateLimit } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/other-methods';
import { parseWith, queryOf } from '@/lib/http/parse';
import { rateLimitTicket } from '@/lib/http/rate-limit';
import { readJson } from '@/lib/http/read-json';
import { getChain } from '@/lib/chain/rpc';
import { getIdentity, parseTagParam } from '@/lib/features/identity/get-identity';
import { getSignalsAtSlot } from '@/lib/features/identity/signals';
import { indexedSlotHeaders } from '@/lib/db/indexed-slot';
import { actionPreflight, withActionHeaders } from '@/lib/http/action-route';
import {
  buildPayAction,
  PayActionQuery,
  PayActionRequest,
  payActionMetadata,
} from '@/lib/features/payments/pay-action';
import { payAssetOf } from '@/lib/features/payments/pay-asset';
import { recordReference } from '@/lib/features/payments/issue-reference';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { observeRequest } from '@/lib/observability/observe-request';
import type { ServicesProvider } from '@/lib/http/services';

type TagRoute = { tag: string };
const ROUTE = '/api/actions/pay/{tag}';

export function payActionHandlers(provide: ServicesProvider) {
  const GET = withActionHeaders(
    withApi<TagRoute>(
      async (req, { params, services }) => {
        const { db, config } = services;
        const tag = parseTagParam(params.tag);
        // The signals first: the identity read after them is at least as fresh as their slot.
        const signals = await getSignalsAtSlot(db, tag, { now: new Date() });
        const identity = await getIdentity(db, tag);
        // Only a mint this process has not read yet costs an RPC call, and only that is counted.
        const beforeLookup = () =>
          rateLimitTicket(services, 'actionMint', req.headers, new Date()).count(services.authDb);
        const asset = await payAssetOf(identity.preferredToken, config.solana.cluster, getChain(config).connection, {
          beforeLookup,
        });
        const metadata = payActionMetadata({
          identity,
          asset,
          actionPath: `/api/actions/pay/${tag}`,
          icon: new URL(`/profile/${tag}/opengraph-image`, config.appUrl).href,
          warnings: signals.value.warnings,
        });
        return json(metadata, {
          headers: { 'Cache-Control': PUBLIC_READ_CACHE_CONTROL, ...indexedSlotHeaders(signals.indexedSlot) },
        });
      },
      ROUTE,
      provide,
    ),
    provide,
  );

  const POST = withActionHeaders(
    withApi<TagRoute>(
      withRateLimit('action', async (req, { params, services: { db, config } }) => {
        const tag = parseTagParam(params.tag);
        const { amount, reference } = parseWith(PayActionQuery, queryOf(req));
        const { account } = parseWith(PayActionRequest, await readJson(req, { maxBytes: 4096 }));
        const identity = await getIdentity(db, tag);
        const { connection } = getChain(config);
        const asset = await payAssetOf(identity.preferredToken, config.solana.cluster, connection);
        const newReference = () => Keypair.generate().publicKey;
        const answer = await buildPayAction({
          identity,
          asset,
          account,
          amount,
          reference,
          connection,
          priorityFee: config.priorityFee,
          newReference,
          actionIdentity: serviceIdentity(config.actionIdentitySecret),
        });
        // Kept so that GET /v1/payments/{reference} answers for it and the finding pass looks it up.
        await recordReference(
          db,
          {
            reference: answer.reference,
            tag,
            owner: identity.owner,
            recipient: identity.wallet,
            amount,
            asset: asset.kind === 'sol' ? 'SOL' : asset.mint.toBase58(),
            decimals: asset.decimals,
          },
          new Date(),
        );
        return json(answer);
      }),
      ROUTE,
      provide,
    ),
    provide,
  );

  const OPTIONS = (req: Request) => observeRequest(req, ROUTE, () => actionPreflight(provide));
  const others = otherMethods(ROUTE, ['GET', 'POST', 'OPTIONS']);
  return {
    GET,
    POST,
    OPTIONS,
    PUT: withActionHeaders(others.PUT, provide),
    PATCH: withActionHeaders(others.PATCH, provide),
    DELETE: withActionHeaders(others.DELETE, provide),
  };
}
