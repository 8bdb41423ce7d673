import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { heldInProcessApp } from '../support/in-process';

const run = promisify(execFile);
const EXAMPLE = 'packages/client/examples/quickstart.ts';
const app = heldInProcessApp();

describe("the client README's example", () => {
  it('is the README text, line for line', async () => {
    const [readme, example] = await Promise.all([
      readFile('packages/client/README.md', 'utf8'),
      readFile(EXAMPLE, 'utf8'),
    ]);
    expect(readme).toContain(example.trim());
  });

  it('runs against the app as written, in a process of its own', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', EXAMPLE], {
      env: { ...process.env, APP_URL: app().url, RPC_URL: inject('rpcUrl') },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^@demo_[a-z0-9]+ owned by [1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(lines[1]).toMatch(/^\d+ live tags; demo_[a-z0-9]+: Demo$/);
  });
});
