import { z } from 'zod';
import { FeedCursor } from '@/lib/features/feed/read-events';
import { normalizePathTag } from '@/lib/core/tag';
import { PaymentReceipt } from '@/lib/features/payments/schemas';
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from './event-types';

/** The most tags one subscription may name. */
export const MAX_SUBSCRIPTION_TAGS = 100;

/** A subscription's id in a path: `wh_` and 24 lower-case hex digits. */
export const WEBHOOK_ID = /^wh_[0-9a-f]{24}$/;

const SubscriptionTag = z.string().transform((value, ctx) => {
  const tag = normalizePathTag(value);
  if (tag === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a tag (`alice` or `@alice`)' });
    return z.NEVER;
  }
  return tag;
});

const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, { message: 'must name each event type once' });

/** POST /v1/webhooks */
export const CreateWebhookRequest = z
  .strictObject({
    url: z.string().max(2048).meta({
      description: 'Where to POST each event: https on port 443, a public host, answering without a redirect',
      example: 'https://hooks.example.org/tags',
    }),
    tags: z
      .array(SubscriptionTag)
      .min(1)
      .max(MAX_SUBSCRIPTION_TAGS)
      .optional()
      .meta({
        description: `Only the events of these tags (\`alice\` or \`@alice\`, up to ${MAX_SUBSCRIPTION_TAGS}); omit for every change`,
        example: ['@alice'],
      }),
    events: WebhookEvents.optional().meta({
      description:
        'The event types to receive: `identity.changed` (every change of the feed, as GET /v1/events shows it) and ' +
        '`payment.received` (a payment to one of the caller’s tags, at `confirmed` and again at `finalized`). ' +
        `Omit for ${DEFAULT_WEBHOOK_EVENTS.map((t) => `\`${t}\``).join(', ')}.`,
      example: ['identity.changed', 'payment.received'],
    }),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

/** POST /v1/webhooks/{id}/replay */
export const ReplayWebhookRequest = z.strictObject({ after: FeedCursor }).meta({
  id: 'ReplayWebhookRequest',
  description: 'Deliver again every event after this feed cursor (`0-0`: from the start)',
});

export const WebhookIdParam = z
  .string()
  .meta({ description: 'The subscription id', example: 'wh_5f0c6a1e9d3b47a2c8e1f00d', param: { id: 'webhookId' } });

const State = z.enum(['active', 'failing', 'disabled']).meta({
  description:
    '`active`: delivering. `failing`: the last attempt failed, retrying with backoff. `disabled`: gave up (see `disabledReason`); replay to start again.',
});

/** A subscription as its owner sees it (never its secret). */
export const Webhook = z
  .object({
    id: WebhookIdParam,
    url: z.string(),
    tags: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The tags it is limited to (`@alice`), or null for every change' }),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: 'The event types it receives' }),
    createdAt: z.iso.datetime({ precision: 3 }),
    state: State,
    cursor: z
      .string()
      .meta({ description: 'The feed cursor after the last event delivered (as `next` of GET /v1/events)' }),
    failures: z.number().int().meta({ description: 'Consecutive failed attempts' }),
    failingSince: z.iso.datetime({ precision: 3 }).nullable(),
    nextAttemptAt: z.iso
      .datetime({ precision: 3 })
      .nullable()
      .meta({ description: 'When the next attempt is due; null once disabled' }),
    lastError: z.string().nullable(),
    disabledReason: z.string().nullable(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookList = z.object({ webhooks: z.array(Webhook) }).meta({ id: 'WebhookList' });

/** The answer of POST /v1/webhooks and of a rotation: the subscription and its signing secret, shown this once. */
export const WebhookWithSecret = Webhook.extend({
  secret: z.string().meta({
    description: 'The Standard Webhooks signing secret (`whsec_…`); shown only in this answer',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).meta({ id: 'WebhookWithSecret' });

export const DeliveryAttempt = z
  .object({
    eventId: z.number().int().meta({ description: 'The event (its `id`, the `webhook-id` header)' }),
    attemptedAt: z.iso.datetime({ precision: 3 }),
    status: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The HTTP status the target answered; null when none came' }),
    latencyMs: z.number().int(),
    error: z.string().nullable().meta({ description: 'Why it failed; null when the target answered 2xx' }),
  })
  .meta({ id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveryAttemptList = z
  .object({ deliveries: z.array(DeliveryAttempt) })
  .meta({ id: 'DeliveryAttemptList' });

/** The `{id}` path parameter of /v1/webhooks/{id}…, as documented. */
export const webhookPath = { path: z.object({ id: WebhookIdParam }) };

/** What the 404 of /v1/webhooks/{id}… means. */
export const NO_SUCH_WEBHOOK = 'No subscription of the caller with this id (another owner’s answers the same)';

/** The body of a `payment.received` delivery. */
export const PaymentReceivedEvent = z
  .object({
    id: z.number().int().meta({ description: 'Unique id of the event (the `webhook-id` header)' }),
    type: z.literal('payment.received'),
    tag: z.string().meta({ description: 'The tag paid, with a leading `@`', example: '@alice' }),
    receipt: PaymentReceipt.meta({
      description:
        'The receipt as GET /v1/payments/{reference} answered when the event was made: `confirmed` or `finalized`',
    }),
    at: z.iso.datetime({ precision: 3 }).meta({ description: 'When the receipt changed (ISO 8601 UTC)' }),
  })
  .meta({ id: 'PaymentReceivedEvent' });
export type PaymentReceivedEvent = z.infer<typeof PaymentReceivedEvent>;
