// The pay Action's handlers (GET /api/actions/pay/{tag}), bound to services by the caller:
// route.ts binds the process's own, tests/support/in-process.ts a test's own.
import type { Address } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import { PUBLIC_READ_CACHE_CONTROL } from '@/lib/http/cors';
import { json, withApi, withRateLimit } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/other-methods';
import { parseWith, queryOf } from '@/lib/http/parse';
import { rateLimitTicket } from '@/lib/http/rate-limit';
import { readJson } from '@/lib/http/read-json';
import { getChain } from '@/lib/chain/rpc';
import { getIdentity, parseTagParam, tagNotFound } from '@/lib/features/identity/get-identity';
import { getSignalsAtSlot } from '@/lib/features/identity/signals';
import { indexedSlotHeaders } from '@/lib/http/indexed-slot';
import { actionPreflight, withActionHeaders } from '@/lib/http/action-route';
import {
  buildPayAction,
  PayActionQuery,
  PayActionRequest,
  payActionMetadata,
} from '@/lib/features/payments/pay-action';
import { payAssetOf, type PayAsset } from '@/lib/features/payments/pay-asset';
import { issueReference, issueServices } from '@/lib/features/payments/issue-reference';
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
        if (!signals.value) throw tagNotFound().withHeaders(indexedSlotHeaders(signals.indexedSlot));
        const identity = await getIdentity(db, tag);
        // Only a mint this process has not read yet costs an RPC call, and only that is counted.
        const beforeLookup = () =>
          rateLimitTicket(services, 'actionMint', req.headers, new Date()).count(services.authDb);
        // A profile kept from before the asset rules may name a token the payee cannot keep: shown, disabled.
        let asset: PayAsset = { kind: 'sol', symbol: 'SOL', decimals: 9, fallback: false };
        let refusal: string | undefined;
        try {
          asset = await payAssetOf(identity.preferredToken, config.solana.cluster, getChain(config).rpc, {
            beforeLookup,
          });
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'unsupported_asset')) throw err;
          refusal = err.message;
        }
        const metadata = payActionMetadata({
          identity,
          asset,
          actionPath: `/api/actions/pay/${tag}`,
          icon: new URL(`/profile/${tag}/opengraph-image`, config.appUrl).href,
          warnings: signals.value.warnings,
          refusal,
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
        // The one issuing function: the payee on chain now, the asset, the amount, and the
        // reference, which must be one this call issues (a chosen one never issued before).
        const issued = await issueReference(issueServices(db, config, new Date()), {
          tag,
          amount,
          asset: 'preferred',
          ...(reference ? { chosen: { reference: reference as Address, payer: account as Address } } : {}),
        });
        const answer = await buildPayAction({
          tag: issued.identity.tag,
          wallet: issued.payee.wallet,
          asset: issued.asset,
          account,
          amount,
          units: issued.units!,
          reference: issued.reference,
          chain: getChain(config),
          priorityFee: config.priorityFee,
          actionIdentity: serviceIdentity(config.actionIdentitySecret),
        });
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
