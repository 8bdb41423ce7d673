import { z } from 'zod';
import { TagBody } from '@/lib/core/tag';
import { PublicKeyString, Signature } from '@/lib/core/keys';

/*
 * Register, availability and sync schemas (SPEC 2.3, 4.5; DESIGN.md "Register", "Indexer").
 * The same schemas validate requests, type the code and generate the OpenAPI document.
 */

/**
 * POST /v1/register body. Strict: unknown keys are refused, `owner` above all (the owner is
 * always the token's key, SPEC 4.5 rule 2). The older form without `feePayer` is the same
 * object with the key left out.
 */
export const RegisterRequest = z
  .strictObject({
    // TagBody's wording, but parsed by buildRegisterTransaction: a bad tag is `invalid_tag`
    tag: z.string().max(64).meta(TagBody.meta()!),
    wallet: PublicKeyString.meta({
      description:
        'Payout wallet stored in the record; defaults to the owner (the token’s public key). When it differs from the owner, it signs the transaction too. It must be a wallet SOL can be spent from: 400 `unsafe_payout` (with a `reason`) for an off-curve address, a token account, a mint, a program or any account a program owns.',
    }).optional(),
    feePayer: PublicKeyString.meta({
      description:
        'Sponsor that pays rent and the network fee; defaults to the owner. When it differs from the owner, both must sign.',
    }).optional(),
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** What a builder answers for the wallet to sign; `what` names the transaction. */
export const unsignedTransaction = (what: string) =>
  z.string().meta({ description: `The unsigned legacy ${what}, serialized (wire format) and base64-encoded.` });

/** Beside every built transaction: the height after which it can no longer land. */
export const LastValidBlockHeight = z.string().regex(/^\d+$/).meta({
  description: 'Last block height at which the transaction is valid, a decimal integer as a string.',
  example: '1234',
});

/** SPEC 2.3: the unsigned transaction, the tag record's address and its expiry height. */
export const RegisterResponse = z
  .object({
    transaction: unsignedTransaction('`register_tag` transaction'),
    pda: z
      .string()
      .meta({ description: 'Address of the tag record account, `findProgramAddress(["tag", tag], programId)`.' }),
    lastValidBlockHeight: LastValidBlockHeight,
  })
  .meta({ id: 'RegisterResponse' });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const TAG_UNAVAILABLE_REASONS = ['invalid', 'reserved', 'taken', 'lookalike', 'quarantined'] as const;

/** GET /v1/availability/{tag} query: the payout wallet the registrant means to name, checked as POST /v1/register checks it. */
export const AvailabilityQuery = z.object({
  wallet: PublicKeyString.meta({
    description: 'Payout wallet to check (400 `unsafe_payout` when SOL sent to it would be lost).',
  }).optional(),
});

/** GET /v1/availability/{tag}: whether POST /v1/register would accept the tag right now. */
export const TagAvailability = z
  .object({
    tag: z
      .string()
      .nullable()
      .meta({ description: 'The canonical tag (no `@`), or null when the input is not a tag.' }),
    available: z.boolean(),
    reason: z.enum(TAG_UNAVAILABLE_REASONS).nullable().meta({
      description:
        '`invalid`: not a well-formed tag; `reserved`: refused by the service; `taken`: registered (or blocked), in the mirror or on chain; `lookalike`: looks like an active verified or merchant tag (see `lookalikes`); `quarantined`: released, it rests until `until` and only its previous owner may register it before then. Null when available.',
    }),
    until: z.string().optional().meta({
      description:
        'With `quarantined`: when the rest ends (ISO 8601, the chain’s clock); anyone may register the tag from then on.',
      example: '2026-12-28T10:00:00.000Z',
    }),
    lookalikes: z
      .array(
        z.object({
          tag: z.string().meta({
            description: 'An existing active tag with the same look-alike skeleton, with its `@`',
            example: '@alice',
          }),
          verified: z.boolean(),
          merchant: z.boolean(),
        }),
      )
      .meta({
        description:
          'Existing active tags this one would look like (docs/integrators.md, "Look-alike tags"): verified and merchant ones first, at most 20.',
      }),
    warning: z.string().nullable().meta({
      description:
        'What to tell the registrant before anything is signed when `lookalikes` is not empty; null otherwise.',
    }),
  })
  .meta({ id: 'TagAvailability' });
export type TagAvailability = z.infer<typeof TagAvailability>;

/** POST /v1/sync body. */
export const SyncRequest = z
  .strictObject({
    signature: Signature.meta({ description: 'Signature of the landed register_tag transaction (base58).' }),
  })
  .meta({ id: 'SyncRequest' });
export type SyncRequest = z.infer<typeof SyncRequest>;

/** POST /v1/sync, 202: seen by the cluster but not yet finalized; call again shortly. */
export const SyncPending = z.object({ status: z.literal('pending') }).meta({ id: 'SyncPending' });
export type SyncPending = z.infer<typeof SyncPending>;
