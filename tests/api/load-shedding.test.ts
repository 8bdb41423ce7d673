import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { errorResponse } from '@/lib/http/error-response';
import {
  admitHeavyBytes,
  EVENT_LOOP_WINDOW_MS,
  HEAVY_BYTES_BURST_SECONDS,
  SHED_LOG_INTERVAL_MS,
  eventLoopUtilization,
  heavyWorkInFlight,
  shedWhileBusy,
  withHeavyWork,
} from '@/lib/http/heavy-work';
import { isDatabaseUnavailable, isPoolBusy } from '@/lib/core/database-errors';
import { AppError, toAppError } from '@/lib/core/errors';
import { captureLogs } from '../support/captured-logs';
import { readResponse } from '../support/http';

/*
 * Load shedding (lib/http/heavy-work.ts, lib/core/database-errors.ts): past the bound on heavy work a
 * request is answered 503 `overloaded` with Retry-After at once, and a pool that is only busy
 * (every connection in use) is load, not a database outage.
 */

const OVERLOADED = { error: { code: 'overloaded', message: 'The service is busy; try again shortly.' } };
/** A bound of `concurrency` heavy requests, the event-loop bound off. */
const atMost = (concurrency: number) => ({ concurrency, maxEventLoopUtilization: 1, bytesPerSecond: Infinity });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the bound on heavy work', () => {
  it('past the bound: 503 overloaded with Retry-After in the envelope; under it, the work runs', async () => {
    let release!: () => void;
    const held = withHeavyWork('test', atMost(2), () => new Promise<void>((resolve) => (release = resolve)));
    const second = withHeavyWork('test', atMost(2), async () => 'ran');
    await expect(second).resolves.toBe('ran');
    const before = heavyWorkInFlight();
    const third = withHeavyWork('test', atMost(before), async () => 'ran');
    await expect(third).rejects.toMatchObject({ code: 'overloaded', status: 503, headers: { 'Retry-After': '1' } });
    const answer = await readResponse(errorResponse(await third.catch((err: unknown) => err)));
    expect([answer.status, answer.headers.get('retry-after'), answer.json]).toEqual([503, '1', OVERLOADED]);
    release();
    await held;
    expect(heavyWorkInFlight()).toBe(before - 1);
  });

  it('a failing piece of work gives its slot back', async () => {
    const before = heavyWorkInFlight();
    await expect(withHeavyWork('test', atMost(1), async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(heavyWorkInFlight()).toBe(before);
  });
});

describe('the bound on the event loop', () => {
  it('while the loop was busy past its bound, heavy work is shed at once; once it has room, it runs', async () => {
    const bound = { concurrency: 100, maxEventLoopUtilization: 0.5, bytesPerSecond: Infinity };
    eventLoopUtilization(); // starts the meter
    await sleep(EVENT_LOOP_WINDOW_MS * 3); // idle windows
    expect(eventLoopUtilization()).toBeLessThan(0.5);
    await expect(withHeavyWork('test', bound, async () => 'ran')).resolves.toBe('ran');

    // The loop held for two windows by synchronous work, as a burst of big pages would.
    const until = performance.now() + EVENT_LOOP_WINDOW_MS * 2;
    while (performance.now() < until);
    await sleep(5); // the meter's tick, late, reads the busy window
    expect(eventLoopUtilization()).toBeGreaterThan(0.5);
    let ran = false;
    const shed = withHeavyWork('test', bound, async () => (ran = true));
    await expect(shed).rejects.toMatchObject({ code: 'overloaded', status: 503, headers: { 'Retry-After': '1' } });
    expect(ran).toBe(false);
    expect(() => shedWhileBusy('test', bound)).toThrow(AppError);
    // The same moment with the bound off (1): served.
    expect(() => shedWhileBusy('test', { ...bound, maxEventLoopUtilization: 1 })).not.toThrow();

    await sleep(EVENT_LOOP_WINDOW_MS * 3);
    await expect(withHeavyWork('test', bound, async () => 'ran')).resolves.toBe('ran');
  });
});

describe('the bound on heavy bytes', () => {
  it('answers start while the bucket holds their bytes; a burst past it is shed; the bucket refills at its rate', () => {
    const bound = { concurrency: 100, maxEventLoopUtilization: 1, bytesPerSecond: 16_000 };
    const capacity = bound.bytesPerSecond * HEAVY_BYTES_BURST_SECONDS; // 1,000 bytes
    expect(capacity).toBe(1_000);
    let t = 1e9; // the bucket is per process: a moment no other test used, so that it starts full
    admitHeavyBytes('test', 600, bound, t);
    admitHeavyBytes('test', 400, bound, t);
    expect(() => admitHeavyBytes('test', 1, bound, t)).toThrow(
      expect.objectContaining({ code: 'overloaded', status: 503, headers: { 'Retry-After': '1' } }),
    );
    t += 25; // 400 bytes back
    expect(() => admitHeavyBytes('test', 500, bound, t)).toThrow(expect.objectContaining({ code: 'overloaded' }));
    admitHeavyBytes('test', 400, bound, t);
    // An answer larger than the whole bucket goes once the bucket is full, and empties it.
    t += 1_000;
    admitHeavyBytes('test', capacity * 10, bound, t);
    expect(() => admitHeavyBytes('test', 1, bound, t)).toThrow(expect.objectContaining({ code: 'overloaded' }));
    // No rate (0 in HEAVY_WORK_BYTES_PER_SECOND): never shed for bytes.
    admitHeavyBytes('test', capacity * 10, { ...bound, bytesPerSecond: Infinity }, t);
  });

  it('logs load shedding once a second per reason, with how many it shed since, as a warning', async () => {
    const bound = { concurrency: 100, maxEventLoopUtilization: 1, bytesPerSecond: 4_000 };
    const logs = captureLogs();
    const lines = () =>
      logs
        .output()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: string; msg: string; shedSinceLastLine?: number })
        .filter((l) => l.msg === 'load shedding: heavy bytes at their rate');
    let t = 2e9;
    admitHeavyBytes('test', 1_000, bound, t);
    for (let i = 0; i < 50; i++) expect(() => admitHeavyBytes('test', 1_000, bound, t)).toThrow();
    expect(lines().length).toBeLessThanOrEqual(1); // 50 shed, at most one line
    await sleep(SHED_LOG_INTERVAL_MS + 50);
    t += 1;
    expect(() => admitHeavyBytes('test', 1_000, bound, t)).toThrow();
    const logged = lines();
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged.length).toBeLessThanOrEqual(2);
    expect(logged.every((l) => l.level === 'warn')).toBe(true);
    // every one of the 51 shed is counted in a line
    expect(logged.reduce((n, l) => n + l.shedSinceLastLine!, 0)).toBeGreaterThanOrEqual(51);
  });
});

describe('a busy pool is load, not an outage', () => {
  it('a wait for a connection that outlives the pool’s deadline answers 503 overloaded, not service_unavailable', async () => {
    // A real PostgreSQL pool of one connection, held by one client: the next wait times out in its queue.
    const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1, connectionTimeoutMillis: 200 });
    const client = await pool.connect();
    try {
      const err = await pool.query('select 1').catch((e: unknown) => e);
      expect(isPoolBusy(err)).toBe(true);
      expect(isDatabaseUnavailable(err)).toBe(false);
      // wrapped as drizzle wraps driver errors
      const wrapped = new Error('Failed query: select 1', { cause: err });
      expect(toAppError(wrapped)).toMatchObject({ code: 'overloaded', status: 503 });
      const answer = await readResponse(errorResponse(wrapped));
      expect([answer.status, answer.headers.get('retry-after'), answer.json]).toEqual([503, '1', OVERLOADED]);
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('a database that refuses connections is still an outage', async () => {
    const pool = new pg.Pool({
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      max: 1,
      connectionTimeoutMillis: 2000,
    });
    try {
      const err = await pool.query('select 1').catch((e: unknown) => e);
      expect(isPoolBusy(err)).toBe(false);
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(toAppError(err)).toEqual(expect.objectContaining({ code: 'service_unavailable' }));
      expect(toAppError(err)).toBeInstanceOf(AppError);
    } finally {
      await pool.end();
    }
  });
});
