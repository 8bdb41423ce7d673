import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ControllablePostgres {
  url: string;
  /** Shuts the server down (connections refused until `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A real PostgreSQL server, of this test alone, that can be stopped and started again. */
export async function startControllablePostgres(): Promise<ControllablePostgres> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(process.cwd(), 'devstack/postgres-process.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiters: { word: string; resolve: () => void }[] = [];
  let resolveUrl!: (url: string) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    child.once('exit', (code) => reject(new Error(`postgres control process exited (${code})`)));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const match = /^url (\S+)$/.exec(line);
    if (match) return resolveUrl(match[1]!);
    const i = waiters.findIndex((w) => w.word === line);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve();
  });
  const command = (word: 'stop' | 'start', answer: string) =>
    new Promise<void>((resolve) => {
      waiters.push({ word: answer, resolve });
      child.stdin!.write(`${word}\n`);
    });
  return {
    url: await url,
    stop: () => command('stop', 'stopped'),
    start: () => command('start', 'started'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
