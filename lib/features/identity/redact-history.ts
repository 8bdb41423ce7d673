import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, identityEvents } from '@/lib/db/schema';
import { AppError } from '@/lib/core/errors';
import { tagNotFound } from './get-identity';
import { EDITABLE_PROFILE_KEYS } from './schemas';

/** What a redaction changed: the tag, and how many of its feed events lost their profile text. */
export interface Redaction {
  tag: string;
  redactedEvents: number;
}

/**
 * Moderation's redaction of a blocked tag (`npm run admin -- redact <tag>`): every change-feed
 * event of the tag keeps its id, type, time and place in the feed, but the identity it carries
 * has its profile text (displayName, avatar, bio, preferredToken, nostr) replaced by null; the row's
 * profile is cleared too, so an unblock cannot bring the text back. Nothing new is written to
 * the feed: the tag's last event already says `remove`. Only a blocked tag: a live one's
 * history is what its replicas show (409 otherwise; 404 no such row).
 */
export async function redactFeedHistory(db: Db, tag: string): Promise<Redaction> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: identities.status })
      .from(identities)
      .where(eq(identities.tag, tag))
      .for('update');
    if (!row) throw tagNotFound();
    if (row.status !== 'blocked') throw new AppError('conflict', 'Only a blocked tag can be redacted: block it first.');
    const cleared = Object.fromEntries(EDITABLE_PROFILE_KEYS.map((key) => [key, null]));
    await tx.update(identities).set(cleared).where(eq(identities.tag, tag));
    const events = await tx
      .select({ id: identityEvents.id, identity: identityEvents.identity })
      .from(identityEvents)
      .where(and(eq(identityEvents.tag, tag), isNotNull(identityEvents.identity)));
    for (const event of events) {
      // the same keys in the same order, the profile's values replaced
      const identity = { ...(event.identity as Record<string, unknown>), ...cleared };
      await tx.update(identityEvents).set({ identity }).where(eq(identityEvents.id, event.id));
    }
    return { tag, redactedEvents: events.length };
  });
}
