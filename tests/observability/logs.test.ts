import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogs, STDOUT_GATHERING, stdoutGathering } from '@/lib/observability/logger';
import { withRequestId } from '@/lib/observability/request-context';
import { workAsyncStorage, type WorkStore } from 'next/dist/server/app-render/work-async-storage.external';
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
  it('are JSON with level, time and message, and carry the request id of the request being served', () => {
    const { log, parsed } = capturedLogger();
    log.info('outside');
    // inside a request Next.js serves (its work store: one per request), as a route's wrapper runs
    const serving = (fn: () => void) => workAsyncStorage.run({} as WorkStore, fn);
    serving(() => withRequestId('req-1234567890', () => log.warn({ detail: 1 }, 'inside')));
    serving(() => log.warn('another request'));
    const [outside, inside, another] = parsed();
    expect(outside).toMatchObject({ level: 'info', msg: 'outside' });
    expect(outside).not.toHaveProperty('requestId');
    // ISO 8601, the wall clock's time (./logger.ts reads it once a second)
    expect(outside!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(outside!.time as string) - Date.now())).toBeLessThan(1000);
    expect(inside).toMatchObject({ level: 'warn', msg: 'inside', detail: 1, requestId: 'req-1234567890' });
    expect(another).toMatchObject({ msg: 'another request' });
    expect(another).not.toHaveProperty('requestId');
  });

  it('never carry a token, a signature or a secret: fields by name are redacted, text is scrubbed', () => {
    const { log, lines, parsed } = capturedLogger();
    log.info({ token: JWT, authorization: `Bearer ${JWT}`, signature: SIGNATURE, secret: SECRET, body: { signature: SIGNATURE, password: SECRET } }, 'fields');
    log.warn(`header was Authorization: Bearer ${SECRET}, token ${JWT}`);
    log.error({ err: new Error(`connect ECONNREFUSED postgres://tags:${SECRET}@db.internal:5432/tags`) }, 'database unavailable');
    log.error({ err: new Error(`Failed query: insert into nonces values ($1, $2)\nparams: ${SECRET},${JWT}`, { cause: new Error(`connect to postgres://tags:${SECRET}@db:5432 failed`) }) }, 'failed query');
    log.error({ err: new Error(`cluster-unreachable: fetch https://rpc.example/?api-key=${SECRET}&x=1 failed`) }, 'cluster unreachable');
    const all = lines.join('\n');
    for (const secret of [JWT, SIGNATURE, SECRET]) expect(all).not.toContain(secret);
    const [fields, text, database, query, cluster] = parsed();
    expect((query!.err as { message: string }).message).toBe('Failed query: insert into nonces values ($1, $2)\nparams: [redacted]');
    expect(fields).toMatchObject({ token: '[redacted]', authorization: '[redacted]', signature: '[redacted]', secret: '[redacted]', body: { signature: '[redacted]', password: '[redacted]' } });
    expect(text!.msg).toBe('header was Authorization: Bearer [redacted], token [redacted]');
    expect((database!.err as { message: string }).message).toBe('connect ECONNREFUSED postgres://[redacted]@db.internal:5432/tags');
    expect((cluster!.err as { message: string }).message).toBe('cluster-unreachable: fetch https://rpc.example/?api-key=[redacted]&x=1 failed');
  });

  it('scrub leaves text without secrets as it is (a transaction signature in an indexer line is public)', () => {
    const line = `indexer: passed over ${SIGNATURE} for good: no instruction of the program`;
    expect(scrub(line)).toBe(line);
  });

  it('reach stdout gathered on a server that stays up, and each as it comes on Vercel, where a function may be frozen after its answer', () => {
    expect(stdoutGathering({})).toEqual({ minChars: 4096, maxDelayMs: 10 });
    expect(stdoutGathering({})).toBe(STDOUT_GATHERING);
    expect(stdoutGathering({ VERCEL: '1' })).toBeNull();
  });
});
