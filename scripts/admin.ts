// `npm run admin -- block|unblock|verify|unverify|merchant|unmerchant|redact <tag>`: moderation,
// on the configured database (./admin-command.ts says what each action does).
import { getConfig } from '@/lib/core/config';
import { openDb } from '@/lib/db/client';
import { adminCommand } from './admin-command';
import { runCommand } from './run-command';

runCommand((args, io) => adminCommand(args, { io, openDatabase: () => openDb(getConfig().database, { poolSize: 1 }) }));
