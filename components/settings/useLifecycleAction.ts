'use client';

import type { LifecycleCall, LifecycleTransaction } from '@/lib/features/lifecycle/schemas';
import type { ActionOutcome } from '@/lib/web/browser/action-outcome';
import { LIFECYCLE_FAILURES } from '@/lib/web/browser/lifecycle-flow';
import { useTransactionFlow, type TransactionFlow } from '@/components/transaction/useTransactionFlow';

/** The settings page's build step: a server action on the /v1 lifecycle builders' code path. */
export type BuildLifecycle = (tag: string, call: LifecycleCall) => Promise<ActionOutcome<LifecycleTransaction>>;

/** A run makes `call` on `tag` (canonical, no `@`); the call's kind titles the steps. */
export type LifecycleAction = TransactionFlow<{ tag: string; call: LifecycleCall }>;

/**
 * One lifecycle action at a time, headless: the shared transaction steps (build, sign, send,
 * confirm, /v1/sync) with the lifecycle action as the build, the program's refusals read by
 * code, and a release's /v1/sync 404 read as done (the tag is gone).
 */
export function useLifecycleAction(sessionKey: string | null, buildLifecycle: BuildLifecycle): LifecycleAction {
  return useTransactionFlow(sessionKey, LIFECYCLE_FAILURES, ({ tag, call }) => ({
    build: () => buildLifecycle(tag, call),
    goneIsDone: call.kind === 'release_tag',
  }));
}
