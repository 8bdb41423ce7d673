// GET /api/cron/indexer — the scheduled indexer run and housekeeping (Bearer CRON_SECRET)
import { json, withApi } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { withCron } from '@/lib/http/cron-auth';
import { runCronJob } from '@/lib/features/indexer/cron-job';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

// Vercel stops a function at its plan's limit; a run also stops at MAX_TRANSACTIONS_PER_RUN (lib/features/indexer/run-indexer.ts), sized to fit.
export const maxDuration = 60;

export const GET = withApi(
  withCron(async (_req, { services: { db, config } }) => {
    const { connection, programId } = getChain(config);
    return json(await runCronJob({ db, connection, programId, config, now: new Date() }));
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/cron/indexer', ['GET']);
