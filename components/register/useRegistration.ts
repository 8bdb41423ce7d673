'use client';

import type { RegisterResponse } from '@/lib/features/registry/schemas';
import type { ActionOutcome } from '@/lib/web/browser/action-outcome';
import { REGISTER_FAILURES } from '@/lib/web/browser/register-flow';
import { useTransactionFlow, type TransactionFlow } from '@/components/transaction/useTransactionFlow';

/** The register page's build step: a server action on POST /v1/register's code path. */
export type BuildRegistration = (input: { tag: string; wallet?: string }) => Promise<ActionOutcome<RegisterResponse>>;

/** A run registers `tag` (what the done screen names) with `payout` as its wallet (empty: the signed-in key). */
export type Registration = TransactionFlow<{ tag: string; payout: string }>;

/**
 * Registering a tag, headless: the shared transaction steps with the register action as the
 * build, and AlreadyRegistered (by code) or the build's 409 read as "the tag was taken".
 */
export function useRegistration(sessionKey: string | null, buildRegistration: BuildRegistration): Registration {
  return useTransactionFlow(sessionKey, REGISTER_FAILURES, ({ tag, payout }) => ({
    build: () => buildRegistration({ tag, wallet: payout || undefined }),
  }));
}
