// GET /v1/events?after=<cursor>&limit=<1..1000> — the change feed: every change of what GET /v1/identity answers
import { withCors, corsPreflight } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { feedCacheControl, FeedQuery } from '@/lib/feed/feed-query';
import { readIdentityEvents } from '@/lib/feed/read-events';
import { atIndexedSlot } from '@/lib/indexer/indexed-slot';

export const GET = withCors(
  withApi(async (req, { services: { db } }) => {
    const { after, limit } = parseWith(FeedQuery, Object.fromEntries(new URL(req.url).searchParams));
    return atIndexedSlot(db, async () => {
      const page = await readIdentityEvents(db, { after: after ?? null, limit });
      return json(page, { headers: { 'Cache-Control': feedCacheControl(page.events.length, limit) } });
    });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
