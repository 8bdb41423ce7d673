// `npm run admin -- block|unblock|verify|unverify|merchant|unmerchant <tag>`: moderation
// (DESIGN.md "Identity"). The only way to change a tag's status or flags; nothing in /v1 can.
import { getConfig } from '@/lib/config';
import { openDb } from '@/lib/db/client';
import { parseTagParam } from '@/lib/identity/get-identity';
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
    // Every instance's next /@tag view reads the change: nothing to tell any of them.
    console.log(JSON.stringify(identity, null, 2));
    return 0;
  } finally {
    await close();
  }
}

runCommand(main);
