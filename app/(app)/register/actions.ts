'use server';

import { z } from 'zod';
import { parseWith } from '@/lib/http/parse';
import { buildRegisterTransaction } from '@/lib/features/registry/build-register-transaction';
import { RegisterRequest } from '@/lib/features/registry/schemas';
import { withAction } from '@/lib/web/server/server-action';

/**
 * The register page's "build" step: POST /v1/register's code path for the session's key
 * (the owner is never taken from the form), under the same rate-limit bucket.
 */
export const buildRegistration = withAction(
  {
    args: z.tuple([z.strictObject({ tag: z.string().max(64), wallet: z.string().max(64).optional() })]),
    rateLimit: 'register',
  },
  async ([input], { caller, services }) => {
    const request = parseWith(RegisterRequest, { tag: input.tag, ...(input.wallet ? { wallet: input.wallet } : {}) });
    return buildRegisterTransaction(services, { owner: caller, request });
  },
);
