import { afterAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { feedPageBytes, FEED_PAGE_KEPT_MS } from '@/lib/features/feed/page-cache';
import { FEED_PAGE_MAX_BYTES, readIdentityEvents } from '@/lib/features/feed/read-events';
import { ownDatabase } from '../support/database';
import { clientHeaders } from '../support/http';
import { closeTestDb, testDb } from '../integrations/support';
import { untilVisible } from '../support/until-visible';

/*
 * Full feed pages are served from the bytes they were first served as (lib/features/feed/page-cache.ts):
 * a full page never changes, so it is keyed by (after, limit) and nothing expires it; the live
 * end (a page that is not full) is read each time.
 */

const appUrl = inject('appUrl');
afterAll(closeTestDb);

describe('full feed pages, kept as bytes', () => {
  const own = ownDatabase({ poolSize: 2 });

  it('a full page is read once and then served from its bytes; the live end is read every time', async () => {
    const db = own.db;
    const tags = await Promise.all(Array.from({ length: 3 }, async () => (await insertIdentity(db)).tag));
    await db.transaction((tx) => recordIdentityChanges(tx as never, tags, new Date()));
    // The events are served once no older transaction is open in the PostgreSQL cluster (another file's may be).
    await untilVisible(
      () => readIdentityEvents(db, { after: null, limit: 3, maxBytes: FEED_PAGE_MAX_BYTES }),
      ({ page }) => page.events.length === 3,
    );
    let reads = 0;
    const counted = <T>(work: () => Promise<T>) => {
      reads += 1;
      return work();
    };
    const ask = (limit: number) => feedPageBytes(db, { after: null, limit, maxBytes: FEED_PAGE_MAX_BYTES }, counted);

    const first = await ask(2);
    expect(first.full).toBe(true);
    const direct = await readIdentityEvents(db, { after: null, limit: 2, maxBytes: FEED_PAGE_MAX_BYTES });
    expect(JSON.parse(first.bytes.toString())).toEqual(direct.page);
    const again = await ask(2);
    expect(again.bytes).toBe(first.bytes); // the same bytes, not rebuilt
    expect(reads).toBe(1);

    // readers asking at once share one read
    const together = await Promise.all(Array.from({ length: 5 }, () => ask(3)));
    expect(new Set(together.map((p) => p.bytes)).size).toBe(1);
    expect(reads).toBe(2);

    // the live end (not full) is read again each time
    await ask(10);
    await ask(10);
    expect(reads).toBe(4);

    // a kept page ages out after FEED_PAGE_KEPT_MS (a moderator's redaction reaches readers within it)
    await feedPageBytes(
      db,
      { after: null, limit: 2, maxBytes: FEED_PAGE_MAX_BYTES },
      counted,
      Date.now() + FEED_PAGE_KEPT_MS + 1000,
    );
    expect(reads).toBe(5);
  });

  it('GET /v1/events answers a full page with the same bytes and headers each time', async () => {
    // two events at least on the app's database, so that a page of one is full
    const { db } = await testDb();
    const tags = [(await insertIdentity(db)).tag, (await insertIdentity(db)).tag];
    await db.transaction((tx) => recordIdentityChanges(tx as never, tags, new Date()));
    const read = async () => {
      const res = await fetch(`${appUrl}/v1/events?limit=1`, { headers: clientHeaders() });
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        cache: res.headers.get('cache-control'),
        slot: res.headers.get('x-indexed-slot'),
        body: await res.text(),
      };
    };
    const first = await read();
    expect(first).toMatchObject({ status: 200, type: 'application/json', cache: 'public, max-age=86400, immutable' });
    expect(first.slot).toMatch(/^\d+$/);
    expect(await read()).toEqual(first);
  });
});

describe('a full page reads the same whatever the reader accepts', () => {
  it('identity or gzip (Next.js compresses where the reader takes it; fetch undoes it), with Vary', async () => {
    const plain = await fetch(`${appUrl}/v1/events?limit=1`, {
      headers: { ...clientHeaders(), 'accept-encoding': 'identity' },
    });
    const zipped = await fetch(`${appUrl}/v1/events?limit=1`, {
      headers: { ...clientHeaders(), 'accept-encoding': 'gzip' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(zipped.headers.get('vary')?.split(/,\s*/)).toContain('Accept-Encoding');
    const text = await plain.text();
    expect(JSON.parse(text)).toHaveProperty('events');
    expect(await zipped.text()).toBe(text);
  });
});
