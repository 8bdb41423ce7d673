// POST /v1/payments — a payee's till asks for a reference to be paid by (DESIGN.md "Payments and receipts")
import { BRIEFLY_UNREACHABLE, MISSING_OR_BLOCKED, ok, PublicReadHeaders } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { json } from '@/lib/http/handler';
import { atIndexedSlot } from '@/lib/http/indexed-slot';
import { issueReference, issueServices } from '@/lib/features/payments/issue-reference';
import { IssuedPayment, PaymentRequest } from '@/lib/features/payments/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/payments', {
  POST: v1Operation({
    operationId: 'issuePayment',
    tags: ['integrators'],
    summary: 'Issue a payment reference for an amount to a tag',
    description:
      'A fresh Solana Pay reference for `amount` of `asset` to the payout wallet the chain holds for the tag now (read at ' +
      'issue time, not from the mirror), the transfer request URL to show as a QR code, and the receipt, `pending`. `asset` is ' +
      '`SOL`, a well-known stablecoin of the cluster (USDC, USDT, PYUSD, EURC) or the payee’s own `preferredToken`. ' +
      'The service looks for its payment on the cluster itself until `expiresAt` (PAYMENT_REFERENCE_TTL_SECONDS, 30 minutes ' +
      'by default); poll GET /v1/payments/{reference}, or subscribe to `payment.received`. Public: anyone may ask to pay a tag. ' +
      'Answers carry `X-Indexed-Slot`, the mirror’s slot.',
    rateLimit: 'payments',
    body: { schema: PaymentRequest, maxBytes: 1024 },
    responses: {
      200: ok(
        'The reference, its Solana Pay URL, its expiry and the receipt',
        IssuedPayment,
        PublicReadHeaders.pick({ 'X-Indexed-Slot': true }),
      ),
    },
    errors: {
      400:
        'Malformed body, or an amount with more decimals than the asset has; `unsafe_payout` (`reason`: `off_curve`, ' +
        '`token_account`, `mint`, `program`, `not_system_owned`) when SOL sent to the payout wallet the chain holds would be ' +
        'lost; `unsupported_asset` for a mint that is not a well-known stablecoin or the payee’s own token, or a Token-2022 ' +
        'mint with an extension that can take, withhold or freeze the payment (`reason`: `permanent_delegate`, `transfer_fee`, ' +
        '`transfer_hook`, `default_account_state_frozen`, `non_transferable`, `pausable`)',
      404: `${MISSING_OR_BLOCKED}; also a tag with no live record on chain now (released)`,
      503: BRIEFLY_UNREACHABLE,
    },
    handler: async (_req, { body, services: { db, config } }) =>
      atIndexedSlot(db, async () => {
        const issued = await issueReference(issueServices(db, config, new Date()), {
          tag: body.tag,
          amount: body.amount,
          asset: body.asset,
        });
        const { reference, url, receipt } = issued;
        return json({ reference, url, expiresAt: receipt.expiresAt, receipt });
      }),
  }),
});
