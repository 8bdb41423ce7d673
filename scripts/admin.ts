// `npm run admin -- block|unblock|verify|unverify|merchant|unmerchant <tag>`: moderation
// (DESIGN.md "Identity"). The only way to change a tag's status or flags; nothing in /v1 can.
import { AppError } from '@/lib/api/errors';
import { ConfigError, getConfig } from '@/lib/config';
import { openDb } from '@/lib/db/client';
import { isModerationAction, moderate, MODERATION_ACTIONS } from '@/lib/identity/moderation';

const USAGE = `usage: npm run admin -- <${MODERATION_ACTIONS.join('|')}> <tag>`;

async function main(args: string[]): Promise<number> {
  const [action, tag, ...rest] = args;
  if (!action || !tag || rest.length > 0 || !isModerationAction(action)) {
    console.error(USAGE);
    return 2;
  }
  const { db, close } = await openDb(getConfig().database, { poolSize: 1 });
  try {
    const identity = await moderate(db, tag, action, new Date());
    console.log(JSON.stringify(identity, null, 2));
    return 0;
  } finally {
    await close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof AppError) console.error(`error: ${err.code}: ${err.message}`);
    else if (err instanceof ConfigError) console.error(err.message);
    else console.error('error:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
