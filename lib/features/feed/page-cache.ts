import type { Db } from '@/lib/db';
import { readIndexedSlot } from '@/lib/db/indexed-slot';
import { KeptBytes } from '@/lib/core/kept-bytes';

import { formatCursor, readIdentityEvents, type FeedPosition, FEED_START } from './read-events';

/*
 * Full pages of the change feed, kept as the bytes they were served as. A full page never
 * changes (read-events.ts: anything committed later sorts after it), so it is keyed by what
 * asks for it, (after, limit), and no writer has to expire it. The one exception is the
 * moderator's redaction of a blocked tag's history (lib/features/identity/redact-history.ts): a page is
 * kept at most FEED_PAGE_KEPT_MS, so a redaction reaches every instance's readers within it
 * (shared caches may keep a full page a day: lib/features/feed/feed-query.ts).
 *
 * Bounded by bytes: FEED_PAGES_KEPT_BYTES, oldest use forgotten first. 32 MiB holds at least
 * 32 pages at the 1 MiB bound, and about 1,000 pages of 100 ordinary events (~30 KB): a
 * follower catching up reads each page once, many followers read the same few.
 * Built once at a time per key: readers asking for the same page at once share one build.
 */

export const FEED_PAGES_KEPT_BYTES = 32 * 1024 * 1024;
export const FEED_PAGE_KEPT_MS = 10 * 60_000;
/** A page counts for its bytes. */
const KEPT_SIZE_PER_BYTE = 1;

/** A page as served: its JSON bytes, whether it is full, and the slot the mirror reflected when it was read. */
export interface FeedPageBytes {
  bytes: Buffer;
  full: boolean;
  indexedSlot: string;
}

// On globalThis: one store per process (per database handle), whichever chunk serves the route.
const STORE = Symbol.for('identity-tag-service.feed-pages');
const holder = globalThis as unknown as Record<typeof STORE, WeakMap<Db, KeptBytes<FeedPageBytes>> | undefined>;
function pagesOf(db: Db): KeptBytes<FeedPageBytes> {
  const stores = (holder[STORE] ??= new WeakMap());
  let pages = stores.get(db);
  if (!pages)
    stores.set(
      db,
      (pages = new KeptBytes<FeedPageBytes>(FEED_PAGES_KEPT_BYTES, (page) => KEPT_SIZE_PER_BYTE * page.bytes.length)),
    );
  return pages;
}

/**
 * The page of `limit` events after `after`: kept bytes when it was full and read lately, else
 * read through `bound` (the caller's bound on heavy work), serialized once and kept when full.
 */
export function feedPageBytes(
  db: Db,
  { after, limit, maxBytes }: { after: FeedPosition | null; limit: number; maxBytes: number },
  bound: <T>(work: () => Promise<T>) => Promise<T>,
  now = Date.now(),
): Promise<FeedPageBytes> {
  const key = `${after ? formatCursor(after) : FEED_START} ${limit}`;
  const pages = pagesOf(db);
  return pages.getOrMake(key, now, () =>
    bound(async () => {
      const indexedSlot = await readIndexedSlot(db); // before the page: the page is at least this fresh
      const { page, full } = await readIdentityEvents(db, { after, limit, maxBytes });
      const served: FeedPageBytes = { bytes: Buffer.from(JSON.stringify(page)), full, indexedSlot };
      if (full) pages.set(key, served, now + FEED_PAGE_KEPT_MS);
      return served;
    }),
  );
}
