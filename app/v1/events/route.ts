// GET /v1/events?after=<cursor>&limit=<1..1000> — the change feed: every change of what GET /v1/identity answers
import { admitHeavyBytes, withHeavyWork } from '@/lib/http/heavy-work';
import { ok, OVERLOADED_OR_UNAVAILABLE, PublicReadHeaders } from '@/lib/http/docs';
import { parseWith, queryOf } from '@/lib/http/parse';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { feedCacheControl, FeedQuery } from '@/lib/features/feed/feed-query';
import { feedPageBytes } from '@/lib/features/feed/page-cache';
import { FEED_PAGE_MAX_BYTES, IdentityEventPage } from '@/lib/features/feed/read-events';
import { indexedSlotHeaders } from '@/lib/http/indexed-slot';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/events', {
  GET: v1Operation({
    operationId: 'listIdentityEvents',
    tags: ['integrators'],
    summary: 'The change feed: every change of what GET /v1/identity answers, in order',
    description:
      'Apply the events in order: `upsert` sets the tag’s identity, `remove` deletes it (missing, released and blocked alike). ' +
      'Pass `next` back as `after`; `next` is the given cursor when nothing is newer. No event is ever skipped: an event ' +
      'whose transaction commits late is served after the cursors given out before it. A page holds at most `limit` events ' +
      'and at most 1 MiB of JSON (it ends early at that bound, between two events). A full page never changes.',
    rateLimit: 'feed',
    // Every page is heavy (up to 1 MiB to compress and write, however made): none while the event loop is past its bound.
    heavy: 'feed',
    requestParams: { query: FeedQuery },
    responses: { 200: ok('A page of events and the cursor after them', IdentityEventPage, PublicReadHeaders) },
    errors: {
      400: 'Malformed cursor, or a limit outside 1..1000, or a parameter given twice',
      503: OVERLOADED_OR_UNAVAILABLE,
    },
    handler: async (req, { services: { db, config } }) => {
      const { after, limit } = parseWith(FeedQuery, queryOf(req));
      // A full page is served from its kept bytes; one read from the database counts as heavy work (503 `overloaded` past the bound).
      const page = await feedPageBytes(db, { after: after ?? null, limit, maxBytes: FEED_PAGE_MAX_BYTES }, (read) =>
        withHeavyWork('feed', config.heavyWork, read),
      );
      admitHeavyBytes('feed', page.bytes.length, config.heavyWork); // its bytes out of the process's budget, or 503
      const headers = {
        'Content-Type': 'application/json',
        'Cache-Control': feedCacheControl(page.full),
        Vary: 'Accept-Encoding',
        ...indexedSlotHeaders(page.indexedSlot),
      };
      // Next.js compresses the answer where the reader takes it. (A page gzipped once and sent with
      // its Content-Encoding reached readers gzipped twice under npm start: see docs/benchmarks.md.)
      return new Response(new Uint8Array(page.bytes), { headers });
    },
  }),
});
