import { z } from 'zod';
import { DEFAULT_FEED_LIMIT, FeedCursor, MAX_FEED_LIMIT } from './read-events';

/** The query of GET /v1/events. */
export const FeedQuery = z.object({
  after: FeedCursor.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { message: `must be an integer from 1 to ${MAX_FEED_LIMIT}` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_FEED_LIMIT, { message: `must be an integer from 1 to ${MAX_FEED_LIMIT}` })
    .default(DEFAULT_FEED_LIMIT)
    // A query value is text on the wire; the document says what the server accepts: an integer in bounds.
    .meta({
      description: `Events per page, 1 to ${MAX_FEED_LIMIT} (default ${DEFAULT_FEED_LIMIT})`,
      override: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_FEED_LIMIT,
        default: DEFAULT_FEED_LIMIT,
        example: 500,
        pattern: undefined,
      },
    }),
});

/**
 * A full page (`limit` events, or cut by the byte bound while a next event exists) can never
 * change: any event committed later sorts after it (read-events.ts), so shared caches may keep
 * it for a day. Any other page is the live end of the feed: a CDN may answer it for one second,
 * so many consumers polling the end cost one read a second.
 */
export function feedCacheControl(full: boolean): string {
  return full ? 'public, max-age=86400, immutable' : 'public, max-age=0, s-maxage=1, stale-while-revalidate=1';
}
