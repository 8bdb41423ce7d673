'use server';

import { headers } from 'next/headers';
import { AppError } from '@/lib/api/errors';
import { getServices } from '@/lib/api/services';
import { clientAddress, hitRateLimit } from '@/lib/auth/rate-limit';
import { getChain } from '@/lib/chain/rpc';
import { buildRegisterTransaction } from '@/lib/registry/build-register-transaction';
import type { RegisterResponse } from '@/lib/registry/schemas';
import { runAction, type ActionResult } from '@/lib/web/action-result';
import { requireSessionKey } from '@/lib/web/session';

/**
 * The register page's "build" step: POST /v1/register's code path for the session's key
 * (the owner is never taken from the form), under the same rate-limit bucket.
 */
export async function buildRegistration(input: { tag: string; wallet?: string }): Promise<ActionResult<RegisterResponse>> {
  return runAction(async () => {
    const owner = await requireSessionKey();
    const { db, config } = await getServices();
    const address = clientAddress(await headers(), config.trustedProxyHops);
    const limit = await hitRateLimit(db, `register:${address}`, config.registerRateLimit, new Date());
    if (!limit.allowed) throw new AppError('rate_limited', 'Too many requests; try again later.');
    const { connection, programId } = getChain(config);
    const body = { tag: String(input.tag ?? ''), ...(input.wallet ? { wallet: String(input.wallet) } : {}) };
    return buildRegisterTransaction({ db, connection, programId, owner, body });
  });
}
