'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { TransactionSteps } from '@/components/transaction/TransactionSteps';
import { DEFAULT_STEP_LABELS } from '@/lib/web/browser/transaction-flow';
import { LIFECYCLE_ACTIONS } from '@/lib/web/browser/lifecycle-flow';
import type { LifecycleAction } from './useLifecycleAction';

/**
 * The steps of the running (or last) lifecycle action, its failure with Retry, and, once it is
 * done, a fresh render of the page from the server (the tag's new wallet, offer or owner).
 */
export function LifecycleProgress({ action }: { action: LifecycleAction }) {
  const router = useRouter();
  const done = action.state.status === 'done';
  useEffect(() => {
    if (done) router.refresh();
  }, [done, router]);
  const kind = action.started?.call.kind;
  if (action.state.status === 'idle' || !kind) return null;
  return (
    <div className="lifecycle-progress">
      <TransactionSteps
        state={action.state}
        labels={DEFAULT_STEP_LABELS}
        title={`${LIFECYCLE_ACTIONS[kind]}: steps`}
        statusTestId="lifecycle-status"
      />
      {action.state.status === 'failed' ? (
        <div role="alert">
          <p className="error" data-testid="lifecycle-error">
            {action.state.failure.message}
          </p>
          <div className="actions">
            {action.state.retryAt ? (
              <button type="button" className="button" onClick={action.retry}>
                {action.state.failure.kind === 'another-signer' ? 'Continue' : 'Retry'}
              </button>
            ) : null}
            <button type="button" className="button secondary" onClick={action.reset}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
