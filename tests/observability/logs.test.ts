import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogs, STDOUT_BUFFERED, STDOUT_LINE_BY_LINE, stdoutOptions } from '@/lib/observability/logger';
import { withRequestId } from '@/lib/observability/request-context';
import { scrub } from '@/lib/observability/scrub';

/** A logger whose lines land in an array, parsed. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const { logger: log } = createLogs(stream);
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhYmMiLCJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2';
const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

describe('log lines', () => {
  it('are JSON with level, time and message, and carry the request id of the request being served', async () => {
    const { log, parsed } = capturedLogger();
    log.info('outside');
    // as a route's wrapper runs the request, and after an await inside it
    withRequestId('req-1234567890', () => log.warn({ detail: 1 }, 'inside'));
    await withRequestId('req-0987654321', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.warn('after an await');
    });
    log.warn('another line outside');
    const [outside, inside, awaited, another] = parsed();
    expect(outside).toMatchObject({ level: 'info', msg: 'outside' });
    expect(outside).not.toHaveProperty('requestId');
    // ISO 8601, the wall clock's time (./logger.ts reads it once a second)
    expect(outside!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(outside!.time as string) - Date.now())).toBeLessThan(1000);
    expect(inside).toMatchObject({ level: 'warn', msg: 'inside', detail: 1, requestId: 'req-1234567890' });
    expect(awaited).toMatchObject({ msg: 'after an await', requestId: 'req-0987654321' });
    expect(another).toMatchObject({ msg: 'another line outside' });
    expect(another).not.toHaveProperty('requestId');
  });

  it('never carry a token, a signature or a secret: fields by name are redacted, text is scrubbed', () => {
    const { log, lines, parsed } = capturedLogger();
    log.info(
      {
        token: JWT,
        authorization: `Bearer ${JWT}`,
        signature: SIGNATURE,
        secret: SECRET,
        body: { signature: SIGNATURE, password: SECRET },
      },
      'fields',
    );
    log.warn(`header was Authorization: Bearer ${SECRET}, token ${JWT}`);
    log.error(
      { err: new Error(`connect ECONNREFUSED postgres://tags:${SECRET}@db.internal:5432/tags`) },
      'database unavailable',
    );
    log.error(
      {
        err: new Error(`Failed query: insert into nonces values ($1, $2)\nparams: ${SECRET},${JWT}`, {
          cause: new Error(`connect to postgres://tags:${SECRET}@db:5432 failed`),
        }),
      },
      'failed query',
    );
    log.error(
      { err: new Error(`cluster-unreachable: fetch https://rpc.example/?api-key=${SECRET}&x=1 failed`) },
      'cluster unreachable',
    );
    const all = lines.join('\n');
    for (const secret of [JWT, SIGNATURE, SECRET]) expect(all).not.toContain(secret);
    const [fields, text, database, query, cluster] = parsed();
    expect((query!.err as { message: string }).message).toBe(
      'Failed query: insert into nonces values ($1, $2)\nparams: [redacted]',
    );
    expect(fields).toMatchObject({
      token: '[redacted]',
      authorization: '[redacted]',
      signature: '[redacted]',
      secret: '[redacted]',
      body: { signature: '[redacted]', password: '[redacted]' },
    });
    expect(text!.msg).toBe('header was Authorization: Bearer [redacted], token [redacted]');
    expect((database!.err as { message: string }).message).toBe(
      'connect ECONNREFUSED postgres://[redacted]@db.internal:5432/tags',
    );
    expect((cluster!.err as { message: string }).message).toBe(
      'cluster-unreachable: fetch https://rpc.example/?api-key=[redacted]&x=1 failed',
    );
  });

  it('scrub leaves text without secrets as it is (a transaction signature in an indexer line is public)', () => {
    const line = `indexer: passed over ${SIGNATURE} for good: no instruction of the program`;
    expect(scrub(line)).toBe(line);
  });

  it("reach stdout through pino's destination: buffered on a server that stays up, each as it comes on Vercel, where a function may be frozen after its answer", () => {
    expect(stdoutOptions({})).toBe(STDOUT_BUFFERED);
    expect(STDOUT_BUFFERED).toEqual({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
    expect(stdoutOptions({ VERCEL: '1' })).toBe(STDOUT_LINE_BY_LINE);
    expect(STDOUT_LINE_BY_LINE).toEqual({ dest: 1, sync: false });
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'logs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A process that logs three lines through the server's stdout, buffered, then ends by `end`; its stdout is a file. */
  function logThenEnd(end: string): { lines: number[]; status: number | null } {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.log`);
    const script = `
      import { logger } from './lib/observability/logger.ts';
      for (let n = 1; n <= 3; n++) logger.info({ n }, 'line');
      ${end}
    `;
    const out = openSync(file, 'w');
    const { VERCEL: _, ...env } = process.env;
    try {
      const { status } = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: process.cwd(),
        env,
        stdio: ['ignore', out, 'ignore'],
      });
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { n: number }).n);
      return { lines, status };
    } finally {
      closeSync(out);
    }
  }

  it('are all written when the process exits, after an uncaught exception too', () => {
    expect(logThenEnd('process.exit(3);')).toEqual({ status: 3, lines: [1, 2, 3] });
    expect(logThenEnd("setTimeout(() => { throw new Error('boom'); }, 5);")).toEqual({ status: 1, lines: [1, 2, 3] });
    expect(logThenEnd('')).toEqual({ status: 0, lines: [1, 2, 3] });
  });
});
