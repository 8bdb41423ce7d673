import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { errorResponse } from '@/lib/http/error-response';
import { heavyWorkInFlight, withHeavyWork } from '@/lib/http/heavy-work';
import { isDatabaseUnavailable, isPoolBusy } from '@/lib/core/database-errors';
import { AppError, toAppError } from '@/lib/core/errors';
import { readResponse } from '../support/http';

/*
 * Load shedding (lib/http/heavy-work.ts, lib/core/database-errors.ts): past the bound on heavy work a
 * request is answered 503 `overloaded` with Retry-After at once, and a pool that is only busy
 * (every connection in use) is load, not a database outage.
 */

const OVERLOADED = { error: { code: 'overloaded', message: 'The service is busy; try again shortly.' } };

describe('the bound on heavy work', () => {
  it('past the bound: 503 overloaded with Retry-After in the envelope; under it, the work runs', async () => {
    let release!: () => void;
    const held = withHeavyWork('test', 2, () => new Promise<void>((resolve) => (release = resolve)));
    const second = withHeavyWork('test', 2, async () => 'ran');
    await expect(second).resolves.toBe('ran');
    const before = heavyWorkInFlight();
    const third = withHeavyWork('test', before, async () => 'ran');
    await expect(third).rejects.toMatchObject({ code: 'overloaded', status: 503, headers: { 'Retry-After': '1' } });
    const answer = await readResponse(errorResponse(await third.catch((err: unknown) => err)));
    expect([answer.status, answer.headers.get('retry-after'), answer.json]).toEqual([503, '1', OVERLOADED]);
    release();
    await held;
    expect(heavyWorkInFlight()).toBe(before - 1);
  });

  it('a failing piece of work gives its slot back', async () => {
    const before = heavyWorkInFlight();
    await expect(withHeavyWork('test', 1, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(heavyWorkInFlight()).toBe(before);
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
