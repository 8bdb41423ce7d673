import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ServiceProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs a TypeScript service script of this folder (`./postgres-process.ts`,
 * `./localnet-process.ts`) in a child process of its own and resolves with the URL it
 * prints as a line `url <url>`. Separate processes keep a service's CPU out of what a
 * benchmark measures, and its module quirks (exit hooks, loaders) out of the test runner.
 */
export async function startServiceProcess(
  script: string,
  { startTimeoutMs = 60_000, args = [] }: { startTimeoutMs?: number; args?: string[] } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^url (\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it started:\n${out}`));
    });
  }).catch(async (err) => {
    await close();
    throw err;
  });
  return { url, close };
}
