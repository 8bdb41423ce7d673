import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import type { Db } from '@/lib/db';
import { identities, identityEvents } from '@/lib/db/schema';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import {
  FEED_PAGE_MAX_BYTES,
  FEED_START,
  FeedCursor,
  readIdentityEvents,
  type IdentityEvent,
  type IdentityEventPage,
} from '@/lib/features/feed/read-events';
import { ownDatabase } from '../support/database';

/*
 * The commit-order trap (DESIGN.md "For integrators"), provoked on purpose with transactions
 * held open: events whose transactions commit out of id order are still all delivered to a
 * reader paging with `after`, and a tag's events come in the order they committed.
 */

const database = ownDatabase({ poolSize: 6 });

/** A transaction kept open until `commit()`: writes go through `tx` meanwhile. */
async function openTransaction(): Promise<{ tx: Db; commit(): Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: (tx: Db) => void;
  const ready = new Promise<Db>((r) => (started = r));
  const done = database.db.transaction(async (tx) => {
    started(tx as unknown as Db);
    await gate;
  });
  return { tx: await ready, commit: () => (release(), done) };
}

async function rename(tx: Db, tag: string, displayName: string): Promise<void> {
  await tx.update(identities).set({ displayName }).where(eq(identities.tag, tag));
}

/** A profile change with its event, in `tx`; the event's id. */
async function change(tx: Db, tag: string, displayName: string): Promise<number> {
  await rename(tx, tag, displayName);
  await recordIdentityChanges(tx, [tag], new Date());
  const [last] = await tx
    .select({ id: identityEvents.id })
    .from(identityEvents)
    .where(eq(identityEvents.tag, tag))
    .orderBy(desc(identityEvents.id))
    .limit(1);
  return last!.id;
}

/** Pages the feed from `cursor` with a small limit until it has nothing newer. */
async function drain(cursor: string): Promise<IdentityEventPage> {
  const events: IdentityEvent[] = [];
  for (;;) {
    const { page } = await readIdentityEvents(database.db, {
      after: FeedCursor.parse(cursor),
      limit: 2,
      maxBytes: FEED_PAGE_MAX_BYTES,
    });
    events.push(...page.events);
    if (page.events.length === 0) return { events, next: page.next };
    cursor = page.next;
  }
}

/** Drains until `want` events arrived: other tests' transactions on the server can hold the horizon back a moment. */
async function drainUntil(cursor: string, want: number): Promise<IdentityEventPage> {
  const events: IdentityEvent[] = [];
  const deadline = Date.now() + 20_000;
  while (events.length < want && Date.now() < deadline) {
    const page = await drain(cursor);
    events.push(...page.events);
    cursor = page.next;
    if (events.length < want) await new Promise((r) => setTimeout(r, 50));
  }
  return { events, next: cursor };
}

describe('change feed ordering', () => {
  it('does not pass an event whose transaction is still open, and delivers it once committed', async () => {
    const [t1, t2] = [await insertIdentity(database.db), await insertIdentity(database.db)];
    const { next: start } = await drain(FEED_START);

    const a = await openTransaction();
    const n = await change(a.tx, t1.tag, 'A');
    const b = await openTransaction();
    const m = await change(b.tx, t2.tag, 'B');
    expect(m).toBeGreaterThan(n);
    await b.commit();

    const early = await drain(start);
    expect(early.events.map((e) => e.id)).not.toContain(m); // B committed, but A (older) is still open
    expect(early.next).toBe(start);

    await a.commit();
    const late = await drainUntil(early.next, 2);
    expect(late.events.map((e) => e.id)).toEqual([n, m]);
  });

  it('delivers an event inserted before another but committed after it (a reader paging by id would skip it)', async () => {
    const [t1, t3] = [await insertIdentity(database.db), await insertIdentity(database.db)];
    const { next: start } = await drain(FEED_START);

    const b = await openTransaction();
    await rename(b.tx, t3.tag, 'B first write'); // B's transaction id is now older than A's
    const a = await openTransaction();
    const n = await change(a.tx, t1.tag, 'A');
    await recordIdentityChanges(b.tx, [t3.tag], new Date());
    await b.commit();

    const first = await drainUntil(start, 1);
    const m = first.events[0]!.id;
    expect(m).toBeGreaterThan(n); // served before n: ids are not the feed's order
    await a.commit();
    const second = await drainUntil(first.next, 1);
    expect(second.events.map((e) => e.id)).toEqual([n]);
  });

  it("orders a tag's events as they committed, even when the later writer's transaction began first", async () => {
    const [t, u] = [await insertIdentity(database.db), await insertIdentity(database.db)];
    const { next: start } = await drain(FEED_START);

    const late = await openTransaction();
    await rename(late.tx, u.tag, 'holds an old transaction id');
    const early = await openTransaction();
    await change(early.tx, t.tag, 'first');
    await early.commit();
    await change(late.tx, t.tag, 'second');
    await late.commit();

    const { events } = await drainUntil(start, 2);
    const ofT = events.filter((e) => e.tag === `@${t.tag}`);
    expect(ofT.map((e) => e.identity?.displayName)).toEqual(['first', 'second']);
  });

  it('reads blocked and missing alike: `remove` with no identity', async () => {
    const [blocked, released] = [await insertIdentity(database.db), await insertIdentity(database.db)];
    const { next: start } = await drain(FEED_START);
    await database.db.transaction(async (tx) => {
      await tx.update(identities).set({ status: 'blocked' }).where(eq(identities.tag, blocked.tag));
      await tx.delete(identities).where(eq(identities.tag, released.tag));
      await recordIdentityChanges(
        tx as unknown as Db,
        [blocked.tag, released.tag],
        new Date('2026-01-02T03:04:05.006Z'),
      );
    });
    const { events } = await drainUntil(start, 2);
    const shapes = events.map(({ id: _id, tag: _tag, ...rest }) => rest);
    expect(shapes).toEqual([
      { type: 'remove', identity: null, at: '2026-01-02T03:04:05.006Z' },
      { type: 'remove', identity: null, at: '2026-01-02T03:04:05.006Z' },
    ]);
  });
});
