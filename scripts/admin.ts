// `npm run admin -- block|unblock|verify|unverify|merchant|unmerchant <tag>`: moderation
// (DESIGN.md "Identity"). The only way to change a tag's status or flags; nothing in /v1 can.
import { getConfig } from '@/lib/config';
import { openDb } from '@/lib/db/client';
import { afterIdentityChanges } from '@/lib/feed/identity-changes';
import { RevalidationError } from '@/lib/feed/profile-pages';
import { parseTagParam } from '@/lib/identity/get-identity';
import { findSkeletonMates } from '@/lib/identity/lookalikes';
import { isModerationAction, moderate, MODERATION_ACTIONS } from '@/lib/identity/moderation';
import { runCommand } from './run-command';

const USAGE = `usage: npm run admin -- <${MODERATION_ACTIONS.join('|')}> <tag>`;

async function main(args: string[]): Promise<number> {
  const [action, tag, ...rest] = args;
  if (!action || !tag || rest.length > 0 || !isModerationAction(action)) {
    console.error(USAGE);
    return 2;
  }
  const { db, close } = await openDb(getConfig().database, { poolSize: 1 });
  try {
    const canonical = parseTagParam(tag);
    const identity = await moderate(db, canonical, action, new Date());
    console.log(JSON.stringify(identity, null, 2));
    // Flags decide the look-alike warning on the pages of the tags that look like this one.
    const { lookalikes } = await findSkeletonMates(db, canonical);
    return await refreshCachedPages([canonical, ...lookalikes.map((l) => l.tag)]);
  } finally {
    await close();
  }
}

/**
 * The app caches /@tag pages: ask it to drop this one, so the next view shows the change.
 * Exit code 3 when it could not (the change itself is saved; running the command again, with
 * APP_URL and AUTH_SECRET as the app has them, refreshes the page).
 */
async function refreshCachedPages(tags: string[]): Promise<number> {
  try {
    await afterIdentityChanges(tags);
    return 0;
  } catch (err) {
    if (!(err instanceof RevalidationError)) throw err;
    console.error(`warning: the change is saved, but the cached page of @${tags[0]} was not refreshed: ${err.message}`);
    return 3;
  }
}

runCommand(main);
