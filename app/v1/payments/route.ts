// POST /v1/payments — a payee's till asks for a reference to be paid by (DESIGN.md "Payments and receipts")
import { Keypair } from '@solana/web3.js';
import { MISSING_OR_BLOCKED, ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { issuePayment } from '@/lib/features/payments/issue-reference';
import { IssuedPayment, PaymentRequest } from '@/lib/features/payments/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/payments', {
  POST: v1Operation({
    operationId: 'issuePayment',
    tags: ['integrators'],
    summary: 'Issue a payment reference for an amount to a tag',
    description:
      'A fresh Solana Pay reference for `amount` of `asset` to the tag’s payout wallet (as it is now), the transfer request URL ' +
      'to show as a QR code, when it expires, and the receipt, `pending`. The service looks for its payment on the cluster ' +
      'itself until `expiresAt` (PAYMENT_REFERENCE_TTL_SECONDS, 30 minutes by default); ' +
      'poll GET /v1/payments/{reference}, or subscribe to `payment.received`. Public: anyone may ask to pay a tag.',
    rateLimit: 'payments',
    body: { schema: PaymentRequest, maxBytes: 1024 },
    responses: { 200: ok('The reference, its Solana Pay URL, its expiry and the receipt', IssuedPayment) },
    errors: {
      400: 'Malformed body, an amount with more decimals than the asset has, or an asset that is not SOL or a mint',
      404: MISSING_OR_BLOCKED,
    },
    handler: async (_req, { body, services: { db, config } }) =>
      issuePayment(
        {
          db,
          connection: getChain(config).connection,
          now: new Date(),
          newReference: () => Keypair.generate().publicKey,
        },
        body,
      ),
  }),
});
