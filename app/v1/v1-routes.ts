// Every /v1 route, for the OpenAPI document. A new route file adds its line here;
// tests/api/openapi-coverage.test.ts fails on an app/v1 route file missing from the list.
import { openApiRouteDeclaration } from '@/lib/http/openapi-route';
import { declarationOf, type V1RouteDeclaration } from '@/lib/http/v1-route';
import * as challenge from './auth/challenge/route';
import * as verify from './auth/verify/route';
import * as session from './auth/session/route';
import * as identity from './identity/[tag]/route';
import * as signals from './identity/[tag]/signals/route';
import * as wallet from './identity/[tag]/wallet/route';
import * as transfer from './identity/[tag]/transfer/route';
import * as cancelTransfer from './identity/[tag]/transfer/cancel/route';
import * as acceptTransfer from './identity/[tag]/transfer/accept/route';
import * as release from './identity/[tag]/release/route';
import * as resolveTag from './resolve/[tag]/route';
import * as resolveBatch from './resolve/route';
import * as reverseAddress from './reverse/[address]/route';
import * as reverseBatch from './reverse/route';
import * as primary from './primary/route';
import * as events from './events/route';
import * as availability from './availability/[tag]/route';
import * as register from './register/route';
import * as sync from './sync/route';
import * as webhooks from './webhooks/route';
import * as webhook from './webhooks/[id]/route';
import * as rotateWebhook from './webhooks/[id]/rotate/route';
import * as replayWebhook from './webhooks/[id]/replay/route';
import * as webhookDeliveries from './webhooks/[id]/deliveries/route';
import * as payments from './payments/route';
import * as paymentReceipt from './payments/[reference]/route';
import * as ens from './ens/route';
import * as ensLookup from './ens/[sender]/[data]/route';

/** The document's own route is built from the same declaration as app/v1/openapi.json/route.ts, without importing it. */
export function v1Routes(): V1RouteDeclaration[] {
  const modules = [
    challenge,
    verify,
    session,
    identity,
    signals,
    wallet,
    transfer,
    cancelTransfer,
    acceptTransfer,
    release,
    resolveTag,
    resolveBatch,
    reverseAddress,
    reverseBatch,
    primary,
    events,
    availability,
    register,
    sync,
    webhooks,
    webhook,
    rotateWebhook,
    replayWebhook,
    webhookDeliveries,
    payments,
    paymentReceipt,
    ens,
    ensLookup,
  ];
  return [...modules.map((module) => declarationOf(module)!), openApiRouteDeclaration(v1Routes)];
}
