/*
 * What a subscription may choose to receive (DESIGN.md "Webhooks"): `identity.changed`, every
 * change of the feed (GET /v1/events), the only kind before subscriptions chose; and
 * `payment.received`, a receipt of a reference issued for one of the owner's tags becoming
 * `confirmed` and then `finalized`. A subscription created without `events` gets what one got
 * before the choice existed.
 */

export const WEBHOOK_EVENT_TYPES = ['identity.changed', 'payment.received'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = ['identity.changed'];
