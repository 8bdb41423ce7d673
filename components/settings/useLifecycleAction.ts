'use client';

import { useState } from 'react';
import type { LifecycleCall, LifecycleTransaction } from '@/lib/lifecycle/schemas';
import { unwrapAction, type ActionOutcome } from '@/lib/web/action-outcome';
import { LIFECYCLE_FAILURES, type LifecycleKind } from '@/lib/web/lifecycle-flow';
import { useTransactionFlow, type TransactionFlow } from '@/components/transaction/useTransactionFlow';

/** The settings page's build step: a server action on the /v1 lifecycle builders' code path. */
export type BuildLifecycle = (tag: string, call: LifecycleCall) => Promise<ActionOutcome<LifecycleTransaction>>;

export interface LifecycleAction extends Omit<TransactionFlow, 'start'> {
  /** The action of the last run (what the steps are titled with), or null before the first. */
  kind: LifecycleKind | null;
  /** Runs `call` on `tag` (canonical, no `@`): build, sign, send, confirm, then /v1/sync. */
  run(tag: string, call: LifecycleCall): void;
}

/**
 * One lifecycle action at a time, headless: the shared transaction steps with the lifecycle
 * action as the build, the program's refusals read by code, and a release's /v1/sync 404 read
 * as done (the tag is gone).
 */
export function useLifecycleAction(sessionKey: string | null, buildLifecycle: BuildLifecycle): LifecycleAction {
  const flow = useTransactionFlow(sessionKey, LIFECYCLE_FAILURES);
  const [kind, setKind] = useState<LifecycleKind | null>(null);
  return {
    ...flow,
    kind,
    run(tag, call) {
      const build = async () => unwrapAction(await buildLifecycle(tag, call));
      if (flow.start({ build, goneIsDone: call.kind === 'release_tag' })) setKind(call.kind);
    },
  };
}
