import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { TEST_AUTH_SECRET } from '@/devstack/app';

export interface AdminRun {
  code: number | null;
  stdout: string;
  /** Without npm's own warnings, so a test can match the command's message from its start. */
  stderr: string;
}

/** `npm run admin -- <args>` against the test database and the test app. */
export function admin(...args: string[]): Promise<AdminRun> {
  return runAdmin(args, inject('appUrl'));
}

/**
 * scripts/admin.ts as `npm run admin` runs it, against the test database. It is given the
 * app's URL and secret because a change asks the app to drop its cached /@tag page; pass an
 * address nothing answers at to see what happens when it cannot.
 */
export function runAdmin(args: string[], appUrl: string): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', '--conditions=react-server', 'scripts/admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), NODE_ENV: 'production', APP_URL: appUrl, AUTH_SECRET: TEST_AUTH_SECRET },
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
