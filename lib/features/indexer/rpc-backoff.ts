/*
 * The indexer's pause after its RPC provider rate-limited it (HTTP 429 past a call's
 * deadline, lib/chain/rpc.ts). Running again at once would spend the quota the provider just
 * refused, and every run in between would fail: instead the runs of the next few seconds are
 * skipped (`backing_off`), the pause doubling while the provider keeps refusing, up to
 * MAX_BACKOFF_MS, and the first run that gets through ends it. Per process, on globalThis
 * (the cron route's chunk and `npm run indexer` each see one), and per provider: the key is
 * the RPC endpoint with the program id.
 */

/** The first pause: 5 s, a provider's usual window being one second to a few. */
export const FIRST_BACKOFF_MS = 5000;
/** The longest pause: 60 s, so the indexer is back within a minute of the quota coming back. */
export const MAX_BACKOFF_MS = 60_000;

interface Backoff {
  until: number;
  nextMs: number;
}

const KEY = Symbol.for('identity-tag-service.indexer-rpc-backoff');
const holder = globalThis as unknown as Record<typeof KEY, Map<string, Backoff> | undefined>;
const backoffs = () => (holder[KEY] ??= new Map());

/** Until when runs of the indexer on `provider` pause (epoch ms), or null when they may run. */
export function backingOffUntil(provider: string, now: number): number | null {
  const backoff = backoffs().get(provider);
  return backoff && backoff.until > now ? backoff.until : null;
}

/** The provider refused a run: pause, twice as long as last time (up to the cap). Returns the pause. */
export function backOff(provider: string, now: number): number {
  const pause = backoffs().get(provider)?.nextMs ?? FIRST_BACKOFF_MS;
  backoffs().set(provider, { until: now + pause, nextMs: Math.min(MAX_BACKOFF_MS, pause * 2) });
  return pause;
}

/** A run got through: the next refusal pauses from the start again. */
export function endBackoff(provider: string): void {
  backoffs().delete(provider);
}
