import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { IdentityEvent } from './feed';

export { WebhookVerificationError };

/**
 * Checks one delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` over the raw body) with the subscription's `whsec_…` secret, and returns
 * its event. Throws WebhookVerificationError for a bad signature, or a timestamp more than five
 * minutes off (a replayed delivery). Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(secret: string, body: string, headers: Headers | Record<string, string>): IdentityEvent {
  const plain = headers instanceof Headers ? Object.fromEntries(headers.entries()) : lowerCased(headers);
  return new Webhook(secret).verify(body, plain) as IdentityEvent;
}

/**
 * A receiver's bookkeeping: delivery is at least once, so the same event can come twice;
 * `webhook-id` is the event's id, and a replica applies each id once.
 */
export class DeliveryDeduplicator {
  private readonly seen = new Set<string>();

  /** True the first time an id is offered. */
  firstTime(webhookId: string): boolean {
    if (this.seen.has(webhookId)) return false;
    this.seen.add(webhookId);
    return true;
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
