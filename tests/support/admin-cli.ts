import { spawn } from 'node:child_process';
import { inject } from 'vitest';

export interface AdminRun {
  code: number | null;
  stdout: string;
  /** Without npm's own warnings, so a test can match the command's message from its start. */
  stderr: string;
}

/** `npm run admin -- <args>` against the test database. */
export function admin(...args: string[]): Promise<AdminRun> {
  return runAdmin(args, inject('databaseUrl'));
}

/**
 * scripts/admin.ts as `npm run admin` runs it, against `databaseUrl`. It gets no app address
 * and no secret: it needs none (APP_URL points where nothing answers, to show it).
 */
export function runAdmin(args: string[], databaseUrl: string): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', '--conditions=react-server', 'scripts/admin.ts', ...args], {
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
