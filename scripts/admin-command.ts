// What `npm run admin` does (scripts/admin.ts runs it in a process of its own; tests call it
// in theirs, with a database of their choosing): moderation (DESIGN.md "Identity"). The only
// way to change a tag's status or flags; nothing in /v1 can. `redact` replaces a blocked tag's
// profile text in its change-feed history.
import type { DbHandle } from '@/lib/db/client';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { isModerationAction, moderate, MODERATION_ACTIONS } from '@/lib/features/identity/moderation';
import { redactFeedHistory } from '@/lib/features/identity/redact-history';
import type { CommandIo } from './run-command';

const USAGE = `usage: npm run admin -- <${[...MODERATION_ACTIONS, 'redact'].join('|')}> <tag>`;

export interface AdminServices {
  io: CommandIo;
  /** A database handle for this run, closed when it ends (opened only once the arguments are good). */
  openDatabase(): Promise<DbHandle>;
}

export async function adminCommand(args: string[], { io, openDatabase }: AdminServices): Promise<number> {
  const [action, tag, ...rest] = args;
  if (!action || !tag || rest.length > 0 || !(isModerationAction(action) || action === 'redact')) {
    io.err(USAGE);
    return 2;
  }
  const { db, close } = await openDatabase();
  try {
    const canonical = parseTagParam(tag);
    if (action === 'redact') {
      io.out(JSON.stringify(await redactFeedHistory(db, canonical), null, 2));
      return 0;
    }
    const identity = await moderate(db, canonical, action, new Date());
    // Every instance's next /@tag view reads the change: nothing to tell any of them.
    io.out(JSON.stringify(identity, null, 2));
    return 0;
  } finally {
    await close();
  }
}
