import { z } from 'zod';
import { PublicKeyString } from '@/lib/core/keys';
import { TagBody } from '@/lib/core/tag';

/*
 * The payment receipt (DESIGN.md "Payments and receipts"): what a reference was issued for and
 * what became of it. The same schemas parse POST /v1/payments and document both routes.
 */

export const PAYMENT_STATUSES = ['pending', 'confirmed', 'finalized', 'invalid', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Rejected transactions a receipt lists at most: the first ones; a flood of dust adds no more. */
export const REJECTED_LISTED = 10;

/** Decimal text in the asset's units; the asset's decimals are checked when the reference is issued. */
const Amount = z
  .string()
  .max(40)
  .regex(/^[0-9.]+$/, { message: 'must be written with the digits 0-9 and a decimal point only' })
  .meta({ description: 'The amount in the asset’s units, as decimal text', example: '1.5' });

/** `SOL`, or an SPL mint address. */
const Asset = z
  .union([z.literal('SOL'), PublicKeyString])
  .meta({ description: '`SOL`, or the SPL mint of the token to be paid', example: 'SOL' });

export const PaymentRequest = z
  .object({ tag: TagBody, amount: Amount, asset: Asset })
  .meta({ id: 'PaymentRequest', description: 'What a payee’s till asks to be paid' });
export type PaymentRequest = z.infer<typeof PaymentRequest>;

export const PaymentReceipt = z
  .object({
    reference: PublicKeyString,
    status: z.enum(PAYMENT_STATUSES).meta({
      description:
        '`pending`: issued, no valid payment found yet (transactions that named the reference but do not pay what was ' +
        'asked are listed in `rejected`); `confirmed` / `finalized`: paid, at that commitment, by the first valid ' +
        'payment; `expired`: no valid payment landed before `expiresAt`, and none is looked for since; `invalid`: only ' +
        'on references settled before rejected payments were listed, when the first transaction carrying the reference ' +
        'decided it (`reason` says why)',
    }),
    tag: z.string().meta({ example: '@alice' }),
    recipient: PublicKeyString.meta({ description: 'The payout wallet the reference was issued for' }),
    amount: z
      .string()
      .nullable()
      .meta({
        description:
          'The amount asked, in the asset’s units; null for a reference issued without one (the profile’s pay link: the ' +
          'payer chooses) until it is paid, then what was paid',
        example: '1.5',
      }),
    asset: z.string().meta({ description: '`SOL`, or the SPL mint', example: 'SOL' }),
    issuedAt: z.string().meta({ description: 'ISO 8601' }),
    expiresAt: z.string().meta({
      description:
        'ISO 8601: issuedAt plus the service’s reference lifetime (PAYMENT_REFERENCE_TTL_SECONDS, 30 minutes by ' +
        'default). A payment landing later settles nothing; a receipt still `pending` then reads `expired`, and an ' +
        'unpaid one is deleted (404) 7 days after',
    }),
    signature: z.string().optional().meta({ description: 'Once found: the transaction that carried the reference' }),
    slot: z.number().int().optional(),
    payer: PublicKeyString.optional().meta({ description: 'Once found: the transaction’s fee payer' }),
    paidAt: z.string().optional().meta({ description: 'Once found: the block time, ISO 8601' }),
    reason: z.string().optional().meta({ description: 'Why an `invalid` receipt is invalid' }),
    rejected: z
      .array(
        z.object({
          signature: z.string().meta({ description: 'The transaction that named the reference' }),
          reason: z.string().meta({
            description:
              'Why it does not pay what was asked (wrong amount, mint or recipient, or landed after `expiresAt`)',
            example: 'the recipient received 0.000005 SOL, not the 1.5 asked',
          }),
        }),
      )
      .max(REJECTED_LISTED)
      .optional()
      .meta({
        description:
          `Transactions that named the reference but failed validation, oldest first, at most ${REJECTED_LISTED}: they ` +
          'never decide the receipt, so a dust payment naming a shown QR code’s reference cannot spoil it; the right ' +
          'payment after them still settles it. Absent when there are none',
      }),
    attributed: z
      .boolean()
      .optional()
      .meta({
        description:
          'Once found: whether the transaction carried this service’s signed Action Identity memo for the reference, i.e. ' +
          'was built by this service (the pay Action) rather than by a wallet that copied the reference; see docs/integrators.md',
      }),
  })
  .meta({ id: 'PaymentReceipt' });
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;

export const IssuedPayment = z
  .object({
    reference: PublicKeyString.meta({ description: 'The Solana Pay reference: poll GET /v1/payments/{reference}' }),
    url: z.string().meta({
      description: 'The Solana Pay transfer request to show as a QR code',
      example: 'solana:9xQe…?amount=1.5&reference=…&label=%40alice',
    }),
    expiresAt: z.string().meta({
      description:
        'ISO 8601: pay before this; after it the reference is `expired` and a payment naming it settles nothing',
    }),
    receipt: PaymentReceipt,
  })
  .meta({ id: 'IssuedPayment' });

export const ReferencePath = z.object({
  reference: PublicKeyString.meta({ description: 'A reference this service issued' }),
});
