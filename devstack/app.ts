import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './ports';

export interface RunningApp {
  url: string;
  /** The server process (Next.js runs inside it): for measuring its memory. */
  pid: number;
  /** What the server wrote to stdout and stderr (its JSON log lines), the newest 4 MB at most. */
  output(): string;
  stop(): Promise<void>;
}

/** The most of an app's output kept for `output()`: a benchmark's request lines are dropped, oldest first. */
const KEPT_OUTPUT = 4 * 1024 * 1024;

/** Secrets the stack's app runs with, so tests can mint and check tokens of their own. */
export const TEST_AUTH_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
export const TEST_CRON_SECRET = 'test-cron-secret-4f1c2a';

/** The folder `next build` wrote to: NEXT_DIST_DIR (parallel builds), else `.next`. */
export function buildDir(): string {
  return process.env.NEXT_DIST_DIR || '.next';
}

/**
 * Throws, naming the folder, when there is no production build to start. Tests and
 * benchmarks run against the built app; without one they must fail, never pass untested.
 */
export function requireProductionBuild(dir = buildDir()): void {
  if (existsSync(path.resolve(process.cwd(), dir, 'BUILD_ID'))) return;
  throw new Error(
    `No production build in ${dir}/ (${dir}/BUILD_ID is missing). Run \`npm run build\` first` +
      (dir === '.next' ? '' : ` with NEXT_DIST_DIR=${dir}`) +
      ', or `npm test`, which builds before it tests.',
  );
}

/**
 * Starts the production build the way `npm start` serves it (scripts/serve.ts: our HTTP
 * server around Next.js, which stamps the socket address) on a free port with the given
 * environment, and waits until it answers. No background indexer and no webhook deliveries
 * unless `env` asks for them.
 */
export async function startApp(env: Record<string, string>, options: StartOptions = {}): Promise<RunningApp> {
  return startServer(['--import', 'tsx', 'scripts/serve.ts', 'start'], env, options);
}

export interface StartOptions {
  /**
   * Where the server's stdout and stderr go: by default a pipe this process reads (for
   * `output()`); with a file, straight into it, as `npm start >> file` or a log collector
   * would take them, so that reading the log costs this process nothing (a benchmark's load
   * generator must not also be the log's reader). `output()` then reads the file.
   */
  logFile?: string;
}

/**
 * What Vercel's edge sets on every request: a bare `next start` as Vercel runs it (VERCEL=1)
 * takes the client address from it, so whatever calls one must send it (ignored elsewhere).
 */
export const VERCEL_EDGE_HEADERS = { 'x-vercel-forwarded-for': '127.0.0.1' } as const;

/**
 * Starts the production build under a bare `next start`, as Vercel runs it (VERCEL=1: the
 * client address comes from `x-vercel-forwarded-for`, which whatever is in front must set).
 * `env` adds to or overrides that.
 */
export async function startBareNext(env: Record<string, string>, options: StartOptions = {}): Promise<RunningApp> {
  return startServer(
    ['node_modules/next/dist/bin/next', 'start', '-p', '{port}', '-H', '127.0.0.1'],
    { VERCEL: '1', ...env },
    options,
  );
}

async function startServer(
  args: string[],
  env: Record<string, string>,
  { logFile }: StartOptions = {},
): Promise<RunningApp> {
  requireProductionBuild();
  // Without it the app would open the embedded PGlite in the repository's .data/.
  if (!env.DATABASE_URL) throw new Error('startApp needs DATABASE_URL (a test PostgreSQL).');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    args.map((arg) => arg.replace('{port}', String(port))),
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_DIST_DIR: buildDir(),
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: url,
        AUTH_SECRET: TEST_AUTH_SECRET,
        CRON_SECRET: TEST_CRON_SECRET,
        INDEXER_INTERVAL_SECONDS: '0',
        WEBHOOK_INTERVAL_SECONDS: '0',
        ...env,
      },
      stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
    },
  );
  if (logFd !== undefined) closeSync(logFd); // the child holds its own copy
  let output = '';
  const keep = (d: Buffer) => {
    output += d;
    if (output.length > KEPT_OUTPUT) output = output.slice(output.length - KEPT_OUTPUT / 2);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const read = logFile === undefined ? () => output : () => tail(readFileSync(logFile, 'utf8'));
  await waitUntilUp(url, child, read, env);
  return { url, pid: child.pid!, output: read, stop: () => stopChild(child) };
}

function tail(text: string): string {
  return text.length > KEPT_OUTPUT ? text.slice(text.length - KEPT_OUTPUT) : text;
}

async function waitUntilUp(
  url: string,
  child: ChildProcess,
  output: () => string,
  env: Record<string, string>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`, { headers: env.VERCEL ? VERCEL_EDGE_HEADERS : {} });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the app did not answer within 60 s:\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}
