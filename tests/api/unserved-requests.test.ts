import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { unservedRequest } from '@/lib/http/unserved-request';
import { readResponse } from '../support/http';

/*
 * TRACE on any path, and the asterisk-form target of `OPTIONS *`, which Next.js answers with
 * a plain-text 500: a 4xx in the envelope, from scripts/serve.ts (lib/http/unserved-request.ts).
 * fetch cannot send either, so the requests are written with node:http.
 */

const appUrl = new URL(inject('appUrl'));
const ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

function send(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: appUrl.hostname, port: appUrl.port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requests no route serves', () => {
  it.each(['/', '/api/health', '/v1/identity/alice', '/@alice', '/no/such/path'])(
    'TRACE %s: 405 in the envelope with Allow',
    async (path) => {
      const res = await send('TRACE', path);
      expect([res.status, res.headers.allow, res.headers['content-type'], JSON.parse(res.body)]).toEqual([
        405,
        ALLOW,
        'application/json',
        { error: { code: 'method_not_allowed', message: `TRACE is not allowed here; allowed: ${ALLOW}.` } },
      ]);
    },
  );

  it('OPTIONS *: 400 in the envelope', async () => {
    const res = await send('OPTIONS', '*');
    expect([res.status, JSON.parse(res.body)]).toEqual([
      400,
      { error: { code: 'invalid_request', message: 'The request target `*` is not served: name a path.' } },
    ]);
  });

  it('every other request goes on to Next.js', async () => {
    expect(unservedRequest('GET', '/api/health')).toBeNull();
    expect(unservedRequest('OPTIONS', '/v1/events')).toBeNull();
    expect((await readResponse(unservedRequest('TRACE', '/x')!)).status).toBe(405);
  });

  it('answers keep idle connections open 65 s by default, above a load balancer’s 60 s (KEEP_ALIVE_TIMEOUT_MS)', async () => {
    const res = await send('GET', '/api/health');
    expect([res.status, res.headers['keep-alive']]).toEqual([200, 'timeout=65']);
  });
});
