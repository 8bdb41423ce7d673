import { describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { identityEvents } from '@/lib/db/schema';
import {
  FEED_PAGE_MAX_BYTES,
  FEED_START,
  FeedCursor,
  readIdentityEvents,
  type IdentityEvent,
} from '@/lib/features/feed/read-events';
import { ownDatabase } from '../support/database';
import { signIn } from '../support/sign-in';
import { heldInProcessApp } from '../support/in-process';
import { untilVisible } from '../support/until-visible';
import { liftedRateLimits } from '@/devstack/rate-limits';

/*
 * A page of GET /v1/events is bounded in bytes (FEED_PAGE_MAX_BYTES, 1 MiB, docs/integrators.md) as well
 * as in events: the attack was 1,100 PATCHes of 2.7 KB each making a 2.9 MB page. A page cut
 * by the bound ends between two events, `next` continues right after its last one, and it
 * is cacheable as immutable only because a next event already exists.
 */

const database = ownDatabase();
const app = heldInProcessApp({ RATE_LIMITS: liftedRateLimits(['profile', 'profileKey', 'feed']) }, { database });

/** Every profile field at its maximum, in characters of four UTF-8 bytes where text allows. */
function maximalPatch(i: number) {
  return {
    displayName: '😀'.repeat(50 - String(i).length) + i,
    bio: '🦀'.repeat(280),
    avatar: `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length - String(i).length)}${i}`,
    preferredToken: 'USDC',
  };
}

async function page(query: string): Promise<{
  status: number;
  bytes: number;
  cacheControl: string | null;
  body: { events: IdentityEvent[]; next: string };
}> {
  const res = await fetch(`${app().url}/v1/events?${query}`);
  const raw = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    bytes: raw.byteLength,
    cacheControl: res.headers.get('cache-control'),
    body: JSON.parse(raw.toString('utf8')),
  };
}

describe('GET /v1/events is bounded in bytes', () => {
  it('after 100 PATCHes with fields at their maximum, a limit=1000 page is at most the bound', async () => {
    const { token, keypair } = await signIn(app().url);
    const { tag } = await insertIdentity(database.db, { owner: keypair.publicKey });
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${app().url}/v1/identity/${tag}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(maximalPatch(i)),
      });
      expect(res.status, await res.text()).toBe(200);
    }
    // Served once no older transaction is open anywhere in the cluster (tests/README.md): read until it is.
    const first = await untilVisible(
      () => page('limit=1000'),
      (p) => p.status !== 200 || p.body.events.filter((e) => e.tag === `@${tag}`).length >= 100,
    );
    expect(first.status).toBe(200);
    expect(first.body.events.filter((e) => e.tag === `@${tag}`)).toHaveLength(100);
    expect(first.bytes).toBeLessThanOrEqual(FEED_PAGE_MAX_BYTES);
  });

  it('a page cut by the bound ends between events, is full (immutable), and `next` goes on after its last event', async () => {
    // 400 events of ≈ 3.5 KB: 1.4 MB, more than one page can hold
    const identity = (n: number) => ({
      tag: `@bulk${n}`,
      bio: '🦀'.repeat(280),
      avatar: `https://example.com/${'b'.repeat(2000)}`,
      n,
    });
    const rows = Array.from({ length: 400 }, (_, n) => ({
      tag: `bulk${n}`,
      type: 'upsert' as const,
      identity: identity(n),
      at: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 100) await database.db.insert(identityEvents).values(rows.slice(i, i + 100));

    /** The whole feed, page after page, as a reader of limit=1000 pages sees it now. */
    const readAll = async () => {
      const all: IdentityEvent[] = [];
      let cursor: string | undefined;
      const pages: Awaited<ReturnType<typeof page>>[] = [];
      for (;;) {
        const p = await page(`limit=1000${cursor ? `&after=${cursor}` : ''}`);
        expect(p.status).toBe(200);
        expect(p.bytes).toBeLessThanOrEqual(FEED_PAGE_MAX_BYTES);
        pages.push(p);
        all.push(...p.body.events);
        if (p.body.next === cursor) break;
        cursor = p.body.next;
      }
      return { all, pages };
    };
    const bulkOf = (events: IdentityEvent[]) => events.filter((e) => e.tag.startsWith('@bulk'));
    // The events are served once no older transaction is open anywhere in the cluster: read until they are.
    const { all, pages } = await untilVisible(readAll, ({ all }) => bulkOf(all).length >= 400);
    // the first page was cut by bytes (well under 1,000 events), filled the bound closely, and may be kept
    expect(pages[0]!.body.events.length).toBeLessThan(500);
    expect(pages[0]!.bytes).toBeGreaterThan(FEED_PAGE_MAX_BYTES - 8 * 1024);
    expect(pages[0]!.cacheControl).toBe('public, max-age=86400, immutable');
    // the end of the feed is live, not immutable
    expect(pages.at(-1)!.cacheControl).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=1');
    // nothing skipped, nothing twice, in order: the same as a reader of small pages sees
    const bulk = bulkOf(all).map((e) => (e.identity as unknown as { n: number }).n);
    expect(bulk).toEqual(Array.from({ length: 400 }, (_, n) => n));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it('readIdentityEvents: every page at most maxBytes, at least one event, full only when cut with a next event', async () => {
    const maxBytes = 20_000;
    let cursor = FEED_START;
    const seen: number[] = [];
    for (;;) {
      const { page: p, full } = await readIdentityEvents(database.db, {
        after: FeedCursor.parse(cursor),
        limit: 1000,
        maxBytes,
      });
      if (p.events.length === 0) {
        expect(full).toBe(false);
        expect(p.next).toBe(cursor);
        break;
      }
      expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThanOrEqual(maxBytes);
      seen.push(...p.events.map((e) => e.id));
      const { page: rest } = await readIdentityEvents(database.db, {
        after: FeedCursor.parse(p.next),
        limit: 1,
        maxBytes,
      });
      expect(full).toBe(rest.events.length > 0);
      cursor = p.next;
    }
    const { page: whole } = await readIdentityEvents(database.db, {
      after: null,
      limit: 1000,
      maxBytes: 100 * FEED_PAGE_MAX_BYTES,
    });
    expect(seen).toEqual(whole.events.map((e) => e.id));
  });

  it('an event larger than the bound is still served, alone, so the feed moves on', async () => {
    const { page: p, full } = await readIdentityEvents(database.db, { after: null, limit: 1000, maxBytes: 100 });
    expect(p.events).toHaveLength(1);
    expect(full).toBe(true);
  });
});
