import { z } from 'zod';
import { PublicKeyString } from '@/lib/core/keys';
import { TagBody } from '@/lib/core/tag';

/*
 * The payment receipt (DESIGN.md "Payments and receipts"): what a reference was issued for and
 * what became of it. The same schemas parse POST /v1/payments and document both routes.
 */

export const PAYMENT_STATUSES = ['pending', 'confirmed', 'finalized', 'invalid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

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
        '`pending`: issued, nothing found yet; `confirmed` / `finalized`: paid, at that commitment; `invalid`: a transaction carrying the reference does not pay what was asked (`reason` says why)',
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
    signature: z.string().optional().meta({ description: 'Once found: the transaction that carried the reference' }),
    slot: z.number().int().optional(),
    payer: PublicKeyString.optional().meta({ description: 'Once found: the transaction’s fee payer' }),
    paidAt: z.string().optional().meta({ description: 'Once found: the block time, ISO 8601' }),
    reason: z.string().optional().meta({ description: 'Why an `invalid` receipt is invalid' }),
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
    receipt: PaymentReceipt,
  })
  .meta({ id: 'IssuedPayment' });

export const ReferencePath = z.object({
  reference: PublicKeyString.meta({ description: 'A reference this service issued' }),
});
