// What every /v1/webhooks operation (webhook-operations.ts) shares: the caller's own subscriptions
// (a token), under one rate limit; and for the operations on one subscription, its id, parsed before
// the body, and one 404 for a missing id and another owner's alike (lib/features/webhooks/subscriptions.ts).
import type { Services } from '@/lib/http/services';
import { v1Operation, type V1Operation } from '@/lib/http/v1-route';
import { NO_SUCH_WEBHOOK, webhookPath } from '@/lib/features/webhooks/schemas';
import { webhookIdOf } from '@/lib/features/webhooks/subscriptions';

export const WEBHOOK_OWNER = { tags: ['webhooks'], rateLimit: 'webhooks' as const, bearer: true as const };

const OWN_WEBHOOK = {
  ...WEBHOOK_OWNER,
  params: ({ id }: Record<string, string>) => ({ id: webhookIdOf(id) }),
  requestParams: webhookPath,
  errors: { 404: NO_SUCH_WEBHOOK },
};

/** What an operation on one subscription acts with: its id, the token's owner, the database, the parsed body. */
interface OwnWebhookCall<B> {
  id: string;
  caller: string;
  db: Services['db'];
  body: B;
}

/** What a route of one subscription says of itself; its errors are beside the shared 404. */
interface OwnWebhookDeclaration<B> extends Pick<
  V1Operation<{ id: string }, B, true>,
  'operationId' | 'summary' | 'description' | 'body' | 'responses' | 'errors'
> {
  call: (context: OwnWebhookCall<B>) => Promise<Response | object>;
}

/** An operation on one of the caller's subscriptions (/v1/webhooks/{id}…): OWN_WEBHOOK's checks, then `call`. */
export function ownWebhookOperation<B = undefined>({ call, errors, ...own }: OwnWebhookDeclaration<B>) {
  return v1Operation({
    ...own,
    ...OWN_WEBHOOK,
    errors: { ...errors, ...OWN_WEBHOOK.errors },
    handler: async (_req, { params: { id }, body, caller, services: { db } }) => call({ id, caller, db, body }),
  });
}
