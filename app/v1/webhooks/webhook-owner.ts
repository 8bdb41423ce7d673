// What every /v1/webhooks route shares: the caller's own subscriptions (a token), under one rate limit;
// and for the routes of one subscription, its id, parsed before the body, and one 404 for a missing
// id and another owner's alike (lib/features/webhooks/subscriptions.ts).
import { NO_SUCH_WEBHOOK, webhookPath } from '@/lib/features/webhooks/schemas';
import { webhookIdOf } from '@/lib/features/webhooks/subscriptions';

export const WEBHOOK_OWNER = { tags: ['webhooks'], rateLimit: 'webhooks' as const, bearer: true as const };

export const OWN_WEBHOOK = {
  ...WEBHOOK_OWNER,
  params: ({ id }: Record<string, string>) => ({ id: webhookIdOf(id) }),
  requestParams: webhookPath,
  errors: { 404: NO_SUCH_WEBHOOK },
};
