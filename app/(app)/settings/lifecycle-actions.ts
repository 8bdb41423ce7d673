'use server';

import { z } from 'zod';
import { TagPath } from '@/lib/core/tag';
import { buildLifecycleTransaction } from '@/lib/features/lifecycle/build-lifecycle-transaction';
import { LifecycleCall } from '@/lib/features/lifecycle/schemas';
import { withAction } from '@/lib/web/server/server-action';

/**
 * The settings page's "build" step for the tag lifecycle (change the wallet, offer, cancel,
 * accept, release): the /v1 lifecycle builders' own code path for the session's key, under
 * the same rate-limit bucket. The signer is always the session's key, never the form's.
 */
export const buildLifecycle = withAction(
  { args: z.tuple([TagPath, LifecycleCall]), rateLimit: 'register' },
  async ([tag, call], { caller, services }) => buildLifecycleTransaction(services, { caller, tag, operation: call }),
);
