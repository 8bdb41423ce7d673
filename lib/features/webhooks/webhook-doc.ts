import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { IdentityEvent } from '@/lib/features/feed/read-events';
import { PaymentReceivedEvent } from './schemas';

const SIGNED_HEADERS = z.object({
  'webhook-id': z
    .string()
    .meta({ description: 'The event id: the same for every attempt of one event', example: '318' }),
  'webhook-timestamp': z
    .string()
    .meta({ description: 'Unix seconds when this attempt was signed', example: '1764100000' }),
  'webhook-signature': z.string().meta({
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per secret in use (two for a day after a rotation)',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

const ANSWERS: ZodOpenApiOperationObject['responses'] = {
  '2XX': { description: 'Any 2xx acknowledges the event' },
  default: {
    description:
      'Any other answer (a redirect, a 4xx, a 5xx) or none within the timeout is a failed attempt, retried with backoff',
  },
};

/** A webhook as OpenAPI 3.1 documents one: what it says of itself, then its body, signed and answered as every webhook. */
function signedWebhook(
  docs: { operationId: string; summary: string; description: string },
  event: z.ZodType,
): ZodOpenApiOperationObject {
  return {
    operationId: docs.operationId,
    tags: ['webhooks'],
    summary: docs.summary,
    description: docs.description,
    security: [],
    requestParams: { header: SIGNED_HEADERS },
    requestBody: { required: true, content: { 'application/json': { schema: event } } },
    responses: ANSWERS,
  };
}

/** What a subscription's target receives (`webhooks.identityChange.post`). */
export const IDENTITY_CHANGE_WEBHOOK = signedWebhook(
  {
    operationId: 'identityChange',
    summary: 'One change of the feed, POSTed to a subscription’s URL (event type `identity.changed`)',
    description:
      'The body is the event exactly as GET /v1/events shows it. Verify the signature with a Standard Webhooks library and ' +
      'the subscription’s secret, refuse a timestamp more than 5 minutes off, and deduplicate by `webhook-id`: delivery is at ' +
      'least once, in feed order. Answer 2xx within the timeout (10 s by default); anything else, a redirect included, is retried.',
  },
  IdentityEvent,
);

/** `webhooks.paymentReceived.post`: a payment to one of the subscription owner's tags. */
export const PAYMENT_RECEIVED_WEBHOOK = signedWebhook(
  {
    operationId: 'paymentReceived',
    summary: 'A payment to one of the owner’s tags, POSTed to a subscription that chose `payment.received`',
    description:
      'Sent when the receipt of a reference issued for one of the subscription owner’s tags becomes `confirmed`, and again ' +
      'when it becomes `finalized` (one event, at `finalized`, when the payment is first found already final). The owner ' +
      'is the tag’s owner when the reference was issued: the one whose payout wallet is paid. Signed, retried and replayed ' +
      'exactly as `identityChange`, in one order with it; verify the same way and deduplicate by `webhook-id`. An `invalid` ' +
      'receipt sends nothing: GET /v1/payments/{reference} says why.',
  },
  PaymentReceivedEvent,
);
