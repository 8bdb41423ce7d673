import { z } from 'zod';
import { ResolvedIdentity } from '@/lib/features/identity/schemas';
import { TagBody, TagPath } from '@/lib/core/tag';
import { PublicKeyString } from '@/lib/core/keys';

/*
 * Schemas of the integrator routes (DESIGN.md "For integrators"): primary tag, reverse
 * lookup and batch resolve. The same schemas validate requests, type the code and generate
 * the OpenAPI document.
 */

/** The most entries one batch request takes (as SNS's proxy batches lookups). */
export const MAX_BATCH = 100;

/** A batch request's list: at most MAX_BATCH items, with one wording for each way it can be wrong. */
function batchOf<T extends z.ZodType>(item: T, plural: string, description: string) {
  return z
    .array(item, {
      error: (iss) => (iss.input === undefined ? `is required: a list of ${plural}` : `must be a list of ${plural}`),
    })
    .max(MAX_BATCH, { message: `at most ${MAX_BATCH} ${plural} per request` })
    .meta({ description });
}

const DisplayedTag = z.string().meta({ description: 'A tag with its leading `@`', example: '@alice' });

/** PUT /v1/primary body: one of the caller's active tags, or null for the default (its oldest). */
export const PrimaryTagRequest = z
  .strictObject({
    tag: TagBody.nullable().meta({
      description:
        'One of the caller’s active tags (bare, any case), or `null` to go back to the default: its oldest active tag.',
      example: 'alice',
    }),
  })
  .meta({ id: 'PrimaryTagRequest' });
export type PrimaryTagRequest = z.output<typeof PrimaryTagRequest>;

export const PrimaryTag = z
  .object({
    owner: PublicKeyString.meta({ description: 'The caller' }),
    tag: DisplayedTag.nullable().meta({
      description: 'The caller’s primary tag now, or null when it owns no active tag',
    }),
  })
  .meta({ id: 'PrimaryTag', example: { owner: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', tag: '@alice' } });
export type PrimaryTag = z.infer<typeof PrimaryTag>;

/** The path parameter of GET /v1/reverse/{address}. */
export const AddressPathParam = PublicKeyString.meta({
  description: 'A base58 Solana address (owner or payout wallet)',
});

export const ReverseLookup = z
  .object({
    address: PublicKeyString,
    tag: DisplayedTag.meta({
      description: 'The address’s primary tag, or else the oldest active tag it is the payout wallet of',
    }),
  })
  .meta({ id: 'ReverseLookup', example: { address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', tag: '@alice' } });
export type ReverseLookup = z.infer<typeof ReverseLookup>;

export const ReverseBatchRequest = z
  .strictObject({
    addresses: batchOf(PublicKeyString, 'addresses', `Up to ${MAX_BATCH} addresses; duplicates answer once`),
  })
  .meta({ id: 'ReverseBatchRequest' });
export type ReverseBatchRequest = z.output<typeof ReverseBatchRequest>;

export const ReverseBatchResponse = z
  .object({
    results: z
      .record(z.string(), DisplayedTag.nullable())
      .meta({ description: 'Each address given → its tag (as GET /v1/reverse answers), or null' }),
  })
  .meta({
    id: 'ReverseBatchResponse',
    example: { results: { '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin': '@alice' } },
  });
export type ReverseBatchResponse = z.infer<typeof ReverseBatchResponse>;

export const ResolveBatchRequest = z
  .strictObject({
    tags: batchOf(
      TagPath,
      'tags',
      `Up to ${MAX_BATCH} tags in any accepted spelling (\`alice\`, \`@Alice\`, \`%40alice\`)`,
    ),
  })
  .meta({ id: 'ResolveBatchRequest' });
export type ResolveBatchRequest = z.output<typeof ResolveBatchRequest>;

export const ResolveBatchResponse = z
  .object({
    results: z.record(z.string(), ResolvedIdentity.nullable()).meta({
      description:
        'Each canonical tag (bare, without `@`) → what GET /v1/resolve/{tag} answers, or null where it answers 404',
    }),
  })
  .meta({ id: 'ResolveBatchResponse' });
export type ResolveBatchResponse = z.infer<typeof ResolveBatchResponse>;
