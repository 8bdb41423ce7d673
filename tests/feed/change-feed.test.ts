import { desc, eq, gt, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { identities, identityEvents } from '@/lib/db/schema';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { moderate } from '@/lib/features/identity/moderation';
import { updateProfile } from '@/lib/features/identity/update-profile';
import type { Identity } from '@/lib/features/identity/schemas';
import { stackDatabase } from '../support/database';
import { clientHeaders } from '../support/http';
import { appUrl, get, requireApp } from '../integrations/support';
import { localOwnerCheck, localTokenCheck } from '../support/owner-check';
import { untilVisible } from '../support/until-visible';

/*
 * GET /v1/events (DESIGN.md "For integrators"): a consumer that applies the feed holds
 * exactly what GET /v1/identity answers, while writers run concurrently and commit out of
 * id order.
 */

beforeAll(() => requireApp());
// Its own pool, large enough for 20 writers, one transaction held open and the reader's checks.
const database = stackDatabase({ poolSize: 30 });

interface FeedEvent {
  id: number;
  tag: string;
  type: 'upsert' | 'remove';
  identity: Identity | null;
  at: string;
}
interface FeedPage {
  events: FeedEvent[];
  next: string;
}

async function page(after: string | null, limit: number): Promise<FeedPage> {
  const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) });
  const res = await get(`/v1/events?${query}`, clientHeaders());
  expect(res.status, res.text).toBe(200);
  return res.json as FeedPage;
}

/** Pages until a page comes back short; the events and the cursor after them. */
async function readToEnd(after: string | null, limit: number): Promise<FeedPage> {
  const events: FeedEvent[] = [];
  let cursor = after;
  for (;;) {
    const p = await page(cursor, limit);
    events.push(...p.events);
    cursor = p.next;
    if (p.events.length < limit) return { events, next: cursor };
  }
}

/** A registration as the indexer mirrors it: the row and its event, in one transaction. */
async function register(tag: string): Promise<void> {
  await database.db.transaction(async (tx) => {
    await insertIdentity(tx, { tag });
    await recordIdentityChanges(tx, [tag], new Date());
  });
}

/** A release as the indexer mirrors it: the row deleted, its event. */
async function release(tag: string): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const gone = await tx.delete(identities).where(eq(identities.tag, tag)).returning();
    if (gone.length) await recordIdentityChanges(tx, [tag], new Date());
    return gone.length > 0;
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /v1/events', () => {
  it('20 concurrent writers, 500 changes, a reader paging with limit 7: its replica equals GET of every tag', async () => {
    const start = (await readToEnd(null, 1000)).next;
    const tags = Array.from({ length: 40 }, () => randomTag('feed_'));
    for (const tag of tags) await register(tag);

    const replica = new Map<string, Identity>();
    const delivered: FeedEvent[] = [];
    const mine = new Set(tags.map((tag) => `@${tag}`));
    // Set once every writer is done: how many events of these tags the database holds.
    let expected: number | undefined;
    const reader = (async () => {
      let cursor = start;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const p = await page(cursor, 7);
        for (const event of p.events) {
          delivered.push(event);
          if (event.type === 'upsert') replica.set(event.tag, event.identity!);
          else replica.delete(event.tag);
        }
        cursor = p.next;
        if (expected !== undefined && delivered.filter((e) => mine.has(e.tag)).length >= expected) return cursor;
        if (p.events.length === 0) await sleep(5);
      }
      throw new Error('the reader did not catch up within a minute');
    })();

    const kinds = { profile: 0, block: 0, unblock: 0, release: 0, register: 0 };
    const changeOnce = async (w: number, i: number): Promise<boolean> => {
      const tag = tags[Math.floor(Math.random() * tags.length)]!;
      const [row] = await database.db.select().from(identities).where(eq(identities.tag, tag));
      const roll = Math.random();
      try {
        if (!row) {
          await register(tag);
          kinds.register++;
        } else if (roll < 0.5) {
          await updateProfile(
            database.db,
            { tag, caller: row.owner, patch: { displayName: `writer ${w} change ${i}` } },
            new Date(),
            localOwnerCheck(),
            localTokenCheck(),
          );
          kinds.profile++;
        } else if (roll < 0.75) {
          const action = row.status === 'active' ? 'block' : 'unblock';
          await moderate(database.db, tag, action, new Date());
          kinds[action]++;
        } else {
          if (!(await release(tag))) return false;
          kinds.release++;
        }
        return true;
      } catch {
        return false; // a race with another writer (released meanwhile, blocked meanwhile): try again
      }
    };
    const writer = async (w: number) => {
      for (let done = 0; done < 25;) if (await changeOnce(w, done)) done++;
    };

    // One more writer holds its transaction open after writing its event, until others with
    // larger ids have committed: its event commits out of id order.
    const late = (async () => {
      let lateId = 0;
      await database.db.transaction(async (tx) => {
        const tag = tags[0]!;
        await tx.update(identities).set({ bio: 'committed late' }).where(eq(identities.tag, tag));
        await recordIdentityChanges(tx, [tag], new Date());
        [{ id: lateId }] = await tx
          .select({ id: identityEvents.id })
          .from(identityEvents)
          .orderBy(desc(identityEvents.id))
          .limit(1);
        for (;;) {
          const after = await database.db
            .select({ id: identityEvents.id })
            .from(identityEvents)
            .where(gt(identityEvents.id, lateId))
            .limit(5);
          if (after.length >= 5) break;
          await sleep(10);
        }
      });
      return lateId;
    })();

    await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
    const lateId = await late;
    expected = (
      await database.db.select({ id: identityEvents.id }).from(identityEvents).where(inArray(identityEvents.tag, tags))
    ).length;
    const end = await reader;
    const rest = await readToEnd(end, 1000);
    expect(rest.events.filter((e) => mine.has(e.tag))).toEqual([]); // nothing left behind
    expect(kinds.profile + kinds.block + kinds.unblock + kinds.release + kinds.register).toBe(500);
    expect(kinds.block + kinds.release).toBeGreaterThan(0);

    // The late event was delivered, although events with larger ids had committed before it.
    const ids = delivered.map((e) => e.id);
    expect(ids).toContain(lateId);
    expect(new Set(ids).size).toBe(ids.length); // each event once
    expect(delivered.filter((e) => mine.has(e.tag))).toHaveLength(expected);

    for (const tag of tags) {
      const res = await get(`/v1/identity/${tag}`);
      if (res.status === 200) expect(replica.get(`@${tag}`), tag).toEqual(res.json);
      else expect([res.status, replica.has(`@${tag}`)], tag).toEqual([404, false]);
    }

    // Blocked and released read the same: `remove`, nothing else.
    const removes = delivered.filter((e) => e.type === 'remove');
    expect(removes.length).toBeGreaterThan(0);
    for (const e of removes) expect(Object.keys(e).sort()).toEqual(['at', 'id', 'identity', 'tag', 'type']);
    for (const e of removes) expect(e.identity).toBeNull();
  }, 120_000);

  it('without `after` starts at the beginning; `next` is the given cursor when nothing is newer', async () => {
    const first = await page(null, 1);
    expect(first.events).toHaveLength(1);
    // Other files write to the same feed meanwhile: from the end, read on until a page finds nothing newer.
    let given = (await readToEnd(null, 1000)).next;
    const again = await untilVisible(
      async () => {
        const read = { given, page: await page(given, 5) };
        given = read.page.next;
        return read;
      },
      (read) => read.page.events.length === 0,
    );
    expect(again.page).toEqual({ events: [], next: again.given });
  });

  it('answers an upsert with the full identity object, as GET /v1/identity does', async () => {
    const start = (await readToEnd(null, 1000)).next;
    const tag = randomTag('feed_');
    await register(tag);
    const mine = await untilVisible(
      async () => (await readToEnd(start, 10)).events.filter((e) => e.tag === `@${tag}`),
      (events) => events.length > 0,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]!.type).toBe('upsert');
    // The same object, down to the order of its keys.
    expect(JSON.stringify(mine[0]!.identity)).toBe(JSON.stringify((await get(`/v1/identity/${tag}`)).json));
    expect(mine[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  const BAD: Record<string, { query: string; message: string }> = {
    'limit 0': { query: 'limit=0', message: '`limit`: must be an integer from 1 to 1000' },
    'limit 1001': { query: 'limit=1001', message: '`limit`: must be an integer from 1 to 1000' },
    'a limit that is no number': { query: 'limit=ten', message: '`limit`: must be an integer from 1 to 1000' },
    'a negative limit': { query: 'limit=-5', message: '`limit`: must be an integer from 1 to 1000' },
    'a cursor the feed never gave': {
      query: 'after=12',
      message: '`after`: must be a cursor returned as `next` by this feed',
    },
  };
  for (const [name, c] of Object.entries(BAD)) {
    it(`400 for ${name}`, async () => {
      const res = await get(`/v1/events?${c.query}`, clientHeaders());
      expect([res.status, res.json]).toEqual([400, { error: { code: 'invalid_request', message: c.message } }]);
    });
  }

  it('is public and CORS-open; a full page may be cached for long, the live end for a second', async () => {
    const full = await fetch(`${appUrl}/v1/events?limit=1`, {
      headers: { ...clientHeaders(), origin: 'https://wallet.example' },
    });
    expect(full.headers.get('access-control-allow-origin')).toBe('*');
    expect(full.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const end = await readToEnd(null, 1000);
    const live = await fetch(`${appUrl}/v1/events?after=${end.next}`, { headers: clientHeaders() });
    expect(live.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=1');
  });
});
