import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { openDb } from '@/lib/db/client';
import { adminCommand } from '@/scripts/admin-command';
import { commandExitCode } from '@/scripts/run-command';

export interface AdminRun {
  code: number | null;
  stdout: string;
  /** Without npm's own warnings, so a test can match the command's message from its start. */
  stderr: string;
}

/**
 * The admin command (scripts/admin-command.ts) against the test database, in this process:
 * its exit code and the lines it writes, as `npm run admin -- <args>` prints them
 * (scripts/run-command.ts ends both). `runAdmin` is the command in a process of its own.
 */
export async function admin(...args: string[]): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const io = { out: (line: string) => (stdout += `${line}\n`), err: (line: string) => (stderr += `${line}\n`) };
  const openDatabase = () => openDb({ driver: 'node-postgres', url: inject('databaseUrl') }, { poolSize: 1 });
  const code = await commandExitCode((argv, out) => adminCommand(argv, { io: out, openDatabase }), args, io);
  return { code, stdout, stderr };
}

/**
 * `npm run admin -- <args>` in a process of its own, against `databaseUrl`. It gets no app
 * address and no secret: it needs none (APP_URL points where nothing answers, to show it).
 */
export function runAdmin(args: string[], databaseUrl: string): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production', APP_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') }));
  });
}
