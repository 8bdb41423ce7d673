// GET /v1/identity/{tag}/signals — what a payer weighs before paying: dates of the owner and wallet, flags, look-alikes, warnings
import { publicTagRead } from '@/lib/http/public-tag-read';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getSignalsAtSlot, Signals } from '@/lib/features/identity/signals';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/signals', {
  GET: v1Operation({
    operationId: 'getSignals',
    tags: ['identity'],
    summary: 'What a payer should weigh before paying a tag',
    description:
      'Registration time, when the owner and the payout wallet became the current ones (block times kept by the indexer), the ' +
      'moderation flags, verified or merchant tags that look like this one, and the warnings /@tag and the pay Action show now. ' +
      'Public and cacheable. A missing and a blocked tag give the same 404.',
    ...publicTagRead('The signals', Signals, (db, tag) => getSignalsAtSlot(db, tag, { now: new Date() })),
  }),
});
