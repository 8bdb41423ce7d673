import { describe, expect, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { ownDatabase } from '../support/database';
import { clientHeaders, readResponse } from '../support/http';
import { heldInProcessApp } from '../support/in-process';
import { untilVisible } from '../support/until-visible';

/*
 * The feed under the per-process bound on heavy bytes (lib/http/heavy-work.ts), through its
 * handlers in this process: with a budget of 400 bytes a second (a bucket of 25), one page
 * goes and the next, at once, is shed with 503 `overloaded` and Retry-After in the envelope;
 * the same two reads under the lifted bound (the test apps' default) are both served. A file of
 * its own: the bucket is the process's.
 */

describe('GET /v1/events under the bound on heavy bytes', () => {
  const database = ownDatabase();
  const bounded = heldInProcessApp({ HEAVY_WORK_BYTES_PER_SECOND: '400' }, { database });
  const lifted = heldInProcessApp({}, { database });

  const read = async (app: typeof bounded) =>
    readResponse(await app().fetch('/v1/events?limit=5', { headers: clientHeaders() }));

  it('serves the first page, sheds the next at once; the lifted bound serves both', async () => {
    const tags = [randomTag('shed_'), randomTag('shed_')];
    for (const tag of tags) await insertIdentity(database.db, { tag });
    await database.db.transaction((tx) => recordIdentityChanges(tx, tags, new Date()));
    await untilVisible(
      () => read(lifted),
      (page) => page.text.includes(tags[0]!),
    );

    const [first, second] = [await read(bounded), await read(bounded)];
    expect(first.status, first.text).toBe(200);
    expect(first.text.length).toBeGreaterThan(100); // larger than the whole bucket
    expect(second.status, second.text).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.json).toEqual({ error: { code: 'overloaded', message: 'The service is busy; try again shortly.' } });

    const both = [await read(lifted), await read(lifted)];
    expect(both.map((r) => r.status)).toEqual([200, 200]);
  });
});
