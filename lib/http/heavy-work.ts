import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Config, HeavyWorkBound } from '@/lib/core/config';
import { clientAddress } from './client-address';
import { AppError, overloaded } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';

/*
 * A bound on the expensive work one instance does at once (feed pages built from the database,
 * share images drawn, batch lookups): past HEAVY_WORK_CONCURRENCY (lib/core/config.ts) a request is
 * answered at once with 503 `overloaded` and Retry-After, rather than queued behind the others
 * where it would hold a connection and the event loop while cheap requests (health, an
 * identity read) wait behind it. The shed request is a warning in the log ("load shedding"),
 * never an outage: nothing is down, the instance is busy.
 *
 * A second bound is the event loop itself: while it was busy more than
 * HEAVY_WORK_MAX_EVENT_LOOP_UTILIZATION of the last quarter second, heavy requests are shed too,
 * including pages served from kept bytes (`shedWhileBusy`): a 1 MiB page costs the loop its
 * compression and its writes however it was made, and a few at once can fill it. What is left
 * of the loop stays for the cheap requests. The bound is the service's own loop, not the
 * machine's load: a loop waiting on the database or on clients is not busy.
 *
 * The loop's utilization is measured after the fact, so a burst (64 followers whose pauses have
 * fallen into step, asking at the same moment) would all pass it before the meter saw them. A
 * third bound takes bursts: the bytes of heavy answers a process starts to send come out of a
 * bucket of HEAVY_WORK_BYTES_PER_SECOND, holding a sixteenth of a second of them (`admitHeavyBytes`):
 * one 1 MiB page at the default. A quarter second's bucket let 4 MiB of pages start at once,
 * and health's p95 under 64 followers was the wait behind such a burst (bench/starvation.ts).
 *
 * One count per process for all kinds, on globalThis (each route's chunk has its own module
 * state): what runs out is the process's CPU and pool, whichever route spends them.
 */

/** The window the event loop's utilization is measured over. */
export const EVENT_LOOP_WINDOW_MS = 250;

const IN_FLIGHT = Symbol.for('identity-tag-service.heavy-work-in-flight');
const counter = globalThis as unknown as Record<typeof IN_FLIGHT, number | undefined>;

/** A shedding reason is logged at most once per this long, with how many requests it shed since. */
export const SHED_LOG_INTERVAL_MS = 1000;
const SHED_LOG = Symbol.for('identity-tag-service.shed-log');
const shedLog = globalThis as unknown as Record<typeof SHED_LOG, Map<string, { at: number; shed: number }> | undefined>;

/**
 * The 503 to throw, logged as load shedding: the first time, then at most once a second per
 * reason with the count shed since (a shedding instance answers hundreds a second; its log
 * must not become the next heavy work).
 */
function shed(message: string, fields: Record<string, unknown>) {
  const reasons = (shedLog[SHED_LOG] ??= new Map());
  const now = performance.now();
  const last = reasons.get(message);
  if (!last || now - last.at >= SHED_LOG_INTERVAL_MS) {
    logger.warn({ ...fields, shedSinceLastLine: last ? last.shed + 1 : 1 }, message);
    reasons.set(message, { at: now, shed: 0 });
  } else last.shed += 1;
  return overloaded();
}

interface LoopMeter {
  last: EventLoopUtilization;
  /** The utilization over the last full window, 0..1. */
  utilization: number;
}
const METER = Symbol.for('identity-tag-service.event-loop-meter');
const meters = globalThis as unknown as Record<typeof METER, LoopMeter | undefined>;

/** The event loop's utilization over the last window; the meter starts on the first call. */
export function eventLoopUtilization(): number {
  let meter = meters[METER];
  if (!meter) {
    const started: LoopMeter = (meter = { last: performance.eventLoopUtilization(), utilization: 0 });
    meters[METER] = started;
    setInterval(() => {
      const now = performance.eventLoopUtilization();
      started.utilization = performance.eventLoopUtilization(now, started.last).utilization;
      started.last = now;
    }, EVENT_LOOP_WINDOW_MS).unref();
  }
  return meter.utilization;
}

/*
 * Fair shedding (issue 42): while the loop is past its bound, whose doing is it? Each process
 * keeps, per client, how many heavy requests it started in the last two seconds (the routes
 * record them: `noteHeavyRequest`). While busy:
 * - the client holding the most of that work is refused first, 429 with Retry-After: its own
 *   doing, and a client within its rate limit can still burst the loop (one feed reader at 120
 *   pages a minute did, and had every other client's heavy requests shed with it);
 * - the others pass while that one client holds at least half of the recent heavy work (it is
 *   being refused, so the loop will come back);
 * - with no such client, the load is everyone's: 503 `overloaded` as before.
 * A caller that does not know the client (a second check inside a route) gets the last two.
 */

/** How far back a client's heavy requests count. */
export const HEAVY_SHARE_WINDOW_MS = 2000;
/** The share of the recent heavy work that makes the load one client's doing. */
export const DOMINANT_SHARE = 0.5;
/** Fewer recent heavy requests than this are no client's doing, whatever their share. */
export const MIN_HEAVIEST_REQUESTS = 4;

interface Ledger {
  /** Start of the current half-window. */
  at: number;
  current: Map<string, number>;
  previous: Map<string, number>;
}
const LEDGER = Symbol.for('identity-tag-service.heavy-ledger');
const ledgers = globalThis as unknown as Record<typeof LEDGER, Ledger | undefined>;

function ledger(now: number): Ledger {
  const half = HEAVY_SHARE_WINDOW_MS / 2;
  const book = (ledgers[LEDGER] ??= { at: now, current: new Map(), previous: new Map() });
  if (now - book.at >= 2 * half) {
    book.previous = new Map();
    book.current = new Map();
    book.at = now;
  } else if (now - book.at >= half) {
    book.previous = book.current;
    book.current = new Map();
    book.at = now;
  }
  return book;
}

/** The client a heavy request is counted for (./client-address.ts), or undefined when it cannot be known. */
export function heavyClient(req: Request, config: Pick<Config, 'clientAddress'>): string | undefined {
  try {
    return clientAddress(req.headers, config.clientAddress);
  } catch {
    return undefined; // the rate limit refuses such a request itself
  }
}

/** Counts a heavy request `client` starts now (the routes call it once per heavy request). */
export function noteHeavyRequest(client: string | undefined, now = performance.now()): void {
  if (!client) return;
  const book = ledger(now);
  book.current.set(client, (book.current.get(client) ?? 0) + 1);
}

/** The client with the most recent heavy requests, its count, and everyone's. */
function heaviest(now: number): { client: string | null; count: number; total: number } {
  const book = ledger(now);
  const counts = new Map(book.previous);
  for (const [client, n] of book.current) counts.set(client, (counts.get(client) ?? 0) + n);
  let top: string | null = null;
  let count = 0;
  let total = 0;
  for (const [client, n] of counts) {
    total += n;
    if (n > count) [top, count] = [client, n];
  }
  return { client: top, count, total };
}

/** Seconds the heaviest client is told to wait: the window its requests count in. */
const HEAVIEST_RETRY_AFTER_SECONDS = Math.ceil(HEAVY_SHARE_WINDOW_MS / 1000);

/** The 429 of the client whose heavy requests keep the loop busy. */
function heaviestRefused(kind: string, count: number, total: number): AppError {
  const reasons = (shedLog[SHED_LOG] ??= new Map());
  const now = performance.now();
  const message = 'load shedding: the heaviest client refused';
  const last = reasons.get(message);
  if (!last || now - last.at >= SHED_LOG_INTERVAL_MS) {
    logger.warn({ kind, heavyRequests: count, ofAll: total, shedSinceLastLine: last ? last.shed + 1 : 1 }, message);
    reasons.set(message, { at: now, shed: 0 });
  } else last.shed += 1;
  return new AppError(
    'rate_limited',
    'Your heavy requests are keeping the service busy; slow down and try again after Retry-After.',
    { 'Retry-After': String(HEAVIEST_RETRY_AFTER_SECONDS) },
  );
}

/**
 * While the event loop is past its bound: throws 429 `rate_limited` for the client holding the
 * most heavy work, lets the others pass while the load is that one client's doing, and throws
 * 503 `overloaded` (logged as load shedding) when it is everyone's. `client` unknown: never the 429.
 */
export function shedWhileBusy(kind: string, bound: HeavyWorkBound, client?: string): void {
  if (bound.maxEventLoopUtilization >= 1) return;
  const utilization = eventLoopUtilization();
  if (utilization <= bound.maxEventLoopUtilization) return;
  const now = performance.now();
  const top = heaviest(now);
  const counts = top.count >= MIN_HEAVIEST_REQUESTS;
  if (client && counts && top.client === client) throw heaviestRefused(kind, top.count, top.total);
  if (counts && top.client !== client && top.count >= top.total * DOMINANT_SHARE) return;
  throw shed('load shedding: event loop busy', {
    kind,
    eventLoopUtilization: Math.round(utilization * 100) / 100,
    limit: bound.maxEventLoopUtilization,
  });
}

/**
 * Runs `work` if the event loop has room and fewer than `bound.concurrency` heavy requests are
 * in flight in this process; else 503 `overloaded`.
 */
export async function withHeavyWork<T>(kind: string, bound: HeavyWorkBound, work: () => Promise<T>): Promise<T> {
  shedWhileBusy(kind, bound);
  const inFlight = counter[IN_FLIGHT] ?? 0;
  const limit = bound.concurrency;
  if (inFlight >= limit) {
    throw shed('load shedding: heavy work at its bound', { kind, inFlight, limit });
  }
  counter[IN_FLIGHT] = inFlight + 1;
  try {
    return await work();
  } finally {
    counter[IN_FLIGHT] = (counter[IN_FLIGHT] ?? 1) - 1;
  }
}

/** Heavy requests in flight in this process now (tests, metrics). */
export function heavyWorkInFlight(): number {
  return counter[IN_FLIGHT] ?? 0;
}

interface ByteBucket {
  tokens: number;
  at: number;
}
// One bucket per bound, on globalThis: a process has one configuration (one bound) and so one
// bucket, whichever route's chunk asks; apps of their own configuration in one process (tests)
// each have theirs.
const BUCKET = Symbol.for('identity-tag-service.heavy-bytes');
const buckets = globalThis as unknown as Record<typeof BUCKET, WeakMap<HeavyWorkBound, ByteBucket> | undefined>;
/** The bucket holds this long of the rate: the largest burst of heavy bytes one process starts at once. */
export const HEAVY_BYTES_BURST_SECONDS = 0.0625;

/**
 * Takes `bytes` of an answer about to be sent from the process's bucket of heavy bytes, or
 * throws 503 `overloaded` (logged as load shedding) when the bucket holds fewer. An answer larger
 * than the whole bucket goes once the bucket is full. Also sheds while the event loop is busy.
 */
export function admitHeavyBytes(kind: string, bytes: number, bound: HeavyWorkBound, now = performance.now()): void {
  shedWhileBusy(kind, bound);
  if (!Number.isFinite(bound.bytesPerSecond)) return;
  const capacity = bound.bytesPerSecond * HEAVY_BYTES_BURST_SECONDS;
  const byBound = (buckets[BUCKET] ??= new WeakMap());
  let bucket = byBound.get(bound);
  if (!bucket) byBound.set(bound, (bucket = { tokens: capacity, at: now }));
  bucket.tokens = Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * bound.bytesPerSecond);
  bucket.at = Math.max(bucket.at, now);
  const cost = Math.min(bytes, capacity);
  if (bucket.tokens < cost) {
    throw shed('load shedding: heavy bytes at their rate', { kind, bytes, bytesPerSecond: bound.bytesPerSecond });
  }
  bucket.tokens -= cost;
}
