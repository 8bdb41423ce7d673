import type { WebhookSubscriptionRow } from '@/lib/db/schema';

/*
 * When a failed delivery is tried again, and when a subscription is given up on (DESIGN.md
 * "Webhooks"): exponential backoff from RETRY_BASE_MS up to MAX_RETRY_DELAY_MS, disabled after
 * GIVE_UP_AFTER_MS of failing. How often a pass runs at all is lib/core/schedule.ts.
 */

/** The first retry comes this long after a failure; each next one waits twice as long… */
export const RETRY_BASE_MS = 5_000;
/** …up to this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A subscription failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** The delay before retry number `failures` (1: the first retry). */
export function retryDelayMs(failures: number, baseMs = RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.min(failures - 1, 30), MAX_RETRY_DELAY_MS);
}

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
