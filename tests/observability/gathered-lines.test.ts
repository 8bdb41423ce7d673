import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gatherLines } from '@/lib/observability/gathered-lines';

/** A sink that records each text it is handed. */
function recordingSink() {
  const writes: string[] = [];
  return { writes, sink: { write: (text: string) => writes.push(text) } };
}

const line = (n: number) => `{"n":${n}}\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gathered log lines', () => {
  it('are handed on together, in order, once they reach the size', () => {
    const { writes, sink } = recordingSink();
    const out = gatherLines(sink, { minChars: 3 * line(0).length, maxDelayMs: 60_000 });
    out.write(line(1));
    out.write(line(2));
    expect(writes).toEqual([]);
    out.write(line(3));
    expect(writes).toEqual([line(1) + line(2) + line(3)]);
    out.write(line(4));
    out.flush(); // what pino's logger.flush() does
    expect(writes).toEqual([line(1) + line(2) + line(3), line(4)]);
  });

  it('are handed on the delay after the first of them when few come', async () => {
    const { writes, sink } = recordingSink();
    const out = gatherLines(sink, { minChars: 1 << 20, maxDelayMs: 30 });
    out.write(line(1));
    await sleep(10);
    out.write(line(2));
    expect(writes).toEqual([]);
    await sleep(100);
    expect(writes).toEqual([line(1) + line(2)]);
    out.write(line(3));
    await sleep(100);
    expect(writes).toEqual([line(1) + line(2), line(3)]);
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'gathered-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A process that logs three lines through the server's gathering to a file, then ends by `end`. */
  function logThenEnd(end: string): { file: string; status: number | null } {
    const file = path.join(dir, `${end.length}-${Math.random().toString(36).slice(2)}.log`);
    const script = `
      import pino from 'pino';
      import { gatherLines } from './lib/observability/gathered-lines.ts';
      const out = gatherLines(pino.destination({ dest: ${JSON.stringify(file)}, sync: true }), { minChars: 1 << 20, maxDelayMs: 60_000 });
      const log = pino({}, out);
      for (let n = 1; n <= 3; n++) log.info({ n }, 'line');
      ${end}
    `;
    const { status } = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), stdio: 'ignore' });
    return { file, status };
  }
  const numbers = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { n: number }).n);

  it('are all written when the process exits, after an uncaught exception too', () => {
    const exited = logThenEnd('process.exit(3);');
    expect(exited.status).toBe(3);
    expect(numbers(exited.file)).toEqual([1, 2, 3]);
    const crashed = logThenEnd("setTimeout(() => { throw new Error('boom'); }, 5);");
    expect(crashed.status).toBe(1);
    expect(numbers(crashed.file)).toEqual([1, 2, 3]);
    const ended = logThenEnd('');
    expect(ended.status).toBe(0);
    expect(numbers(ended.file)).toEqual([1, 2, 3]);
  });
});
