// GET /v1/payments/{reference} — the receipt of a reference this service issued (DESIGN.md "Payments and receipts")
import { publicReadAtSlot } from '@/lib/http/conditional';
import { conditionalPathRead } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { readIndexedSlot } from '@/lib/db/indexed-slot';
import { readReceipt } from '@/lib/features/payments/receipt';
import { PaymentReceipt, ReferencePath } from '@/lib/features/payments/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/payments/{reference}', {
  GET: v1Operation({
    operationId: 'getPaymentReceipt',
    tags: ['integrators'],
    summary: 'The receipt of a payment reference',
    description:
      '`pending` until a valid payment carrying the reference is found, then `confirmed` and `finalized` with the signature, ' +
      'slot, payer and time; `expired` when none landed before `expiresAt`. The first valid payment settles the reference; ' +
      'transactions that name it but do not pay what was asked (a wrong amount, a payment after expiry) are listed in ' +
      '`rejected` and decide nothing. Public and cacheable.',
    ...conditionalPathRead(ReferencePath, 'The receipt', PaymentReceipt, {
      400: 'Malformed reference',
      404: 'No reference issued by this service has this key (or it expired unpaid more than 7 days ago)',
    }),
    handler: async (req, { params: { reference }, services: { db } }) => {
      const [value, indexedSlot] = await Promise.all([readReceipt(db, reference, new Date()), readIndexedSlot(db)]);
      return publicReadAtSlot(req, { value, indexedSlot });
    },
  }),
});
