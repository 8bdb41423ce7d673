import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { IdentityEvent } from '@/lib/features/feed/read-events';

/** What a subscription's target receives, as OpenAPI 3.1 documents a webhook (`webhooks.identityChange.post`). */
export const IDENTITY_CHANGE_WEBHOOK: ZodOpenApiOperationObject = {
  operationId: 'identityChange',
  tags: ['webhooks'],
  summary: 'One change of the feed, POSTed to a subscription’s URL',
  description:
    'The body is the event exactly as GET /v1/events shows it. Verify the signature with a Standard Webhooks library and ' +
    'the subscription’s secret, refuse a timestamp more than 5 minutes off, and deduplicate by `webhook-id`: delivery is at ' +
    'least once, in feed order. Answer 2xx within the timeout (10 s by default); anything else, a redirect included, is retried.',
  security: [],
  requestParams: {
    header: z.object({
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
    }),
  },
  requestBody: { required: true, content: { 'application/json': { schema: IdentityEvent } } },
  responses: {
    '2XX': { description: 'Any 2xx acknowledges the event' },
    default: {
      description:
        'Any other answer (a redirect, a 4xx, a 5xx) or none within the timeout is a failed attempt, retried with backoff',
    },
  },
};
