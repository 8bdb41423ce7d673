// GET /v1/events?after=<cursor>&limit=<1..1000> — the change feed: every change of what GET /v1/identity answers
import { withCors, corsPreflight } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { feedCacheControl, FeedQuery } from '@/lib/feed/feed-query';
import { FEED_PAGE_MAX_BYTES, readIdentityEvents } from '@/lib/feed/read-events';

export const GET = withCors(
  withApi(
    withRateLimit('feed', async (req, { services: { db } }) => {
      const { after, limit } = parseWith(FeedQuery, Object.fromEntries(new URL(req.url).searchParams));
      const { page, full } = await readIdentityEvents(db, { after: after ?? null, limit, maxBytes: FEED_PAGE_MAX_BYTES });
      return json(page, { headers: { 'Cache-Control': feedCacheControl(full) } });
    }),
  ),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
