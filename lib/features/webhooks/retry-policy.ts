import { GIVE_UP_AFTER_MS, retryDelayMs } from '@/lib/core/schedule';
import type { WebhookSubscriptionRow } from '@/lib/db/schema';

/*
 * A turn's outcome written as the subscription's schedule. The policy itself (backoff, giving
 * up) is declared with the pass's cadence in lib/core/schedule.ts.
 */

/** A turn's outcome as the subscription's schedule: the next attempt, and whether to disable it. */
export interface Schedule {
  failures: number;
  failingSince: Date | null;
  lastError: string | null;
  nextAttemptAt: Date;
  disabledAt?: Date;
  disabledReason?: string;
}

/** The schedule after a turn that ended at `now`, failing with `failure` (null: all delivered). */
export function scheduleAfter(
  row: Pick<WebhookSubscriptionRow, 'failures' | 'failingSince'>,
  failure: { at: Date; error: string | null } | null,
  now: Date,
  retryBaseMs?: number,
): { schedule: Schedule; disabled: boolean } {
  if (failure === null)
    return { schedule: { failures: 0, failingSince: null, lastError: null, nextAttemptAt: now }, disabled: false };
  const failures = row.failures + 1;
  const failingSince = row.failingSince ?? failure.at;
  const disabled = failure.at.getTime() - failingSince.getTime() >= GIVE_UP_AFTER_MS;
  return {
    disabled,
    schedule: {
      failures,
      failingSince,
      lastError: failure.error,
      nextAttemptAt: new Date(failure.at.getTime() + retryDelayMs(failures, retryBaseMs)),
      ...(disabled
        ? {
            disabledAt: now,
            disabledReason:
              `Disabled after failing for ${Math.round((failure.at.getTime() - failingSince.getTime()) / 3_600_000)} hours ` +
              `(${failures} attempts since ${failingSince.toISOString()}); last error: ${failure.error}. Replay to start again.`,
          }
        : {}),
    },
  };
}
