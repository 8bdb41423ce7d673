// `npm run admin -- block|unblock|verify|unverify|merchant|unmerchant|redact <tag>`: moderation
// (DESIGN.md "Identity"). The only way to change a tag's status or flags; nothing in /v1 can.
// `redact` replaces a blocked tag's profile text in its change-feed history.
import { getConfig } from '@/lib/core/config';
import { openDb } from '@/lib/db/client';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { isModerationAction, moderate, MODERATION_ACTIONS } from '@/lib/features/identity/moderation';
import { redactFeedHistory } from '@/lib/features/identity/redact-history';
import { runCommand } from './run-command';

const USAGE = `usage: npm run admin -- <${[...MODERATION_ACTIONS, 'redact'].join('|')}> <tag>`;

async function main(args: string[]): Promise<number> {
  const [action, tag, ...rest] = args;
  if (!action || !tag || rest.length > 0 || !(isModerationAction(action) || action === 'redact')) {
    console.error(USAGE);
    return 2;
  }
  const { db, close } = await openDb(getConfig().database, { poolSize: 1 });
  try {
    const canonical = parseTagParam(tag);
    if (action === 'redact') {
      console.log(JSON.stringify(await redactFeedHistory(db, canonical), null, 2));
      return 0;
    }
    const identity = await moderate(db, canonical, action, new Date());
    // Every instance's next /@tag view reads the change: nothing to tell any of them.
    console.log(JSON.stringify(identity, null, 2));
    return 0;
  } finally {
    await close();
  }
}

runCommand(main);
