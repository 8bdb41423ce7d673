'use client';

import { useState } from 'react';
import type { RegisterResponse } from '@/lib/registry/schemas';
import { unwrapAction, type ActionOutcome } from '@/lib/web/action-outcome';
import { REGISTER_FAILURES } from '@/lib/web/register-flow';
import { useTransactionFlow, type TransactionFlow } from '@/components/transaction/useTransactionFlow';

/** The register page's build step: a server action on POST /v1/register's code path. */
export type BuildRegistration = (input: { tag: string; wallet?: string }) => Promise<ActionOutcome<RegisterResponse>>;

export interface Registration extends Omit<TransactionFlow, 'start'> {
  /** The tag of the last run (what the done screen names). */
  tag: string | null;
  /** Registers `tag` with `payout` as its wallet (empty: the signed-in key). */
  start(tag: string, payout: string): void;
}

/**
 * Registering a tag, headless: the shared transaction steps with the register action as the
 * build, and AlreadyRegistered (by code) or the build's 409 read as "the tag was taken".
 */
export function useRegistration(sessionKey: string | null, buildRegistration: BuildRegistration): Registration {
  const flow = useTransactionFlow(sessionKey, REGISTER_FAILURES);
  const [tag, setTag] = useState<string | null>(null);
  return {
    ...flow,
    tag,
    start(nextTag, payout) {
      const build = async () => unwrapAction(await buildRegistration({ tag: nextTag, wallet: payout || undefined }));
      if (flow.start({ build })) setTag(nextTag);
    },
  };
}
