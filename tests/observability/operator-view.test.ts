import { describe, expect, it } from 'vitest';
import { TEST_AUTH_SECRET } from '@/devstack/app';
import { watchIndexerLag } from '@/lib/features/indexer/lag-gauges';
import { captureLogs } from '../support/captured-logs';
import { ownDatabase } from '../support/database';
import { held } from '../support/held';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { clientHeaders, readResponse } from '../support/http';
import { loggedLine, sample } from './support';

/*
 * What an operator sees: /api/metrics, request ids, the log, /api/indexer/status. The routes'
 * handlers run in this process (tests/support/in-process.ts), on a database of the file's own,
 * the lag gauges watched as production's services do; the log lines are this process's own
 * (tests/support/captured-logs.ts), requests reach the handlers through the in-process
 * listener (`app().url`).
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
const database = ownDatabase();
const logs = captureLogs();
const app = held<InProcessApp>(
  'the app',
  async () => {
    const opened = await inProcessApp({ DATABASE_URL: database.url, METRICS_TOKEN });
    watchIndexerLag(opened.services);
    return opened;
  },
  (a) => a.close(),
);
const operator = { authorization: `Bearer ${METRICS_TOKEN}` };

async function metrics(): Promise<string> {
  const res = await fetch(`${app().url}/api/metrics`, { headers: operator });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

describe('GET /api/metrics', () => {
  it('shows a request just made under its route and status, its latency too', async () => {
    const labels = { route: '/v1/identity/{tag}', method: 'GET', status: '404' };
    const before = await metrics();
    const res = await fetch(`${app().url}/v1/identity/nobody${Date.now() % 100000}`);
    expect(res.status).toBe(404);
    const after = await metrics();
    expect(sample(after, 'http_server_requests_total', labels)).toBe(
      sample(before, 'http_server_requests_total', labels) + 1,
    );
    expect(sample(after, 'http_server_request_duration_seconds_count', labels)).toBe(
      sample(before, 'http_server_request_duration_seconds_count', labels) + 1,
    );
    expect(
      sample(after, 'http_server_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('reports the pools and the indexer', async () => {
    const text = await metrics();
    expect(text).toMatch(/^db_pool_acquire_duration_seconds_count\{pool="main"\} \d+/m);
    expect(text).toMatch(/^db_pool_waiting\{pool="main"\} \d+/m);
    expect(text).toMatch(/^indexer_lag_slots(\{[^}]*\})? \d+/m);
  });

  it('401 in the envelope without the metrics token when one is set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }] as Record<string, string>[]) {
      const res = await readResponse(await fetch(`${app().url}/api/metrics`, { headers }));
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { code: 'unauthorized', message: 'This route needs the metrics token.' } });
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
  });
});

describe('request ids and the log', () => {
  it('a failed request answers X-Request-Id, and its log line carries it with route, status and duration', async () => {
    const res = await fetch(`${app().url}/v1/identity/Not A Tag`);
    expect(res.status).toBe(400);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await loggedLine(logs, (l) => l.requestId === requestId && l.msg === 'request');
    expect(line).toMatchObject({
      level: 'info',
      route: '/v1/identity/{tag}',
      method: 'GET',
      status: 400,
      path: '/v1/identity/Not%20A%20Tag',
    });
    expect(typeof line.durationMs).toBe('number');
  });

  it('every line of a request carries its id: a 503 from an unreachable database logs its cause under the same id', async () => {
    // a second app whose database does not listen: each request fails with 503
    const down = await inProcessApp({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      SOLANA_RPC_URL: 'http://127.0.0.1:1',
    });
    try {
      const res = await fetch(`${down.url}/v1/identity/alice`);
      expect(res.status).toBe(503);
      const requestId = res.headers.get('x-request-id')!;
      expect(requestId).toBeTruthy();
      const request = await loggedLine(logs, (l) => l.requestId === requestId && l.msg === 'request');
      expect(request).toMatchObject({ level: 'error', status: 503, route: '/v1/identity/{tag}' });
      const cause = await loggedLine(logs, (l) => l.requestId === requestId && l.msg === 'database unavailable');
      expect(cause).toMatchObject({
        level: 'warn',
        err: { message: expect.stringContaining('params: [redacted]'), cause: { code: 'ECONNREFUSED' } },
      });
    } finally {
      await down.close();
    }
  });

  it('keeps a plain request id a proxy gave, and replaces one that is not plain', async () => {
    const kept = await fetch(`${app().url}/api/health`, { headers: { 'x-request-id': 'lb-0123456789abcdef' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-0123456789abcdef');
    const replaced = await fetch(`${app().url}/api/health`, { headers: { 'x-request-id': 'has spaces and "quotes"' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const token = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJpZC10ZXN0In0.aWQtdGVzdC1zaWduYXR1cmU';
    const quotingAToken = await fetch(`${app().url}/api/health`, { headers: { 'x-request-id': token } });
    expect(quotingAToken.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a path that quotes a token with the token redacted', async () => {
    const token = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJwYXRoLXRlc3QifQ.cGF0aC10ZXN0LXNpZ25hdHVyZQ';
    const res = await fetch(`${app().url}/v1/identity/${token}`);
    expect(res.status).toBe(400);
    const line = await loggedLine(logs, (l) => l.requestId === res.headers.get('x-request-id') && l.msg === 'request');
    expect(line).toMatchObject({ route: '/v1/identity/{tag}', path: '/v1/identity/[redacted]', status: 400 });
    expect(logs.output()).not.toContain(token);
  });

  it('never logs the token, the signature or the secret a request carried', async () => {
    const token = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJsb2ctdGVzdCJ9.bG9nLXRlc3Qtc2lnbmF0dXJl';
    const signature = '3'.repeat(88);
    const verify = await fetch(`${app().url}/v1/auth/verify`, {
      method: 'POST',
      headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
      body: JSON.stringify({ pubkey: '11111111111111111111111111111111', message: 'not a sign-in message', signature }),
    });
    expect(verify.status).toBe(401);
    const patch = await fetch(`${app().url}/v1/identity/alice`, {
      method: 'PATCH',
      headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
      body: JSON.stringify({ bio: 'x' }),
    });
    expect(patch.status).toBe(401);
    await loggedLine(logs, (l) => l.requestId === patch.headers.get('x-request-id'));
    const output = logs.output();
    for (const secret of [token, signature, TEST_AUTH_SECRET, METRICS_TOKEN]) expect(output).not.toContain(secret);
  });
});

describe('answers that no handler of the route serves', () => {
  // each: the request, its status and body, and the route its metric and log line name
  it.each([
    ['a CORS preflight', 'OPTIONS', '/v1/identity/alice', '/v1/identity/{tag}', 204, null],
    [
      'a method the route does not serve',
      'PUT',
      '/v1/auth/challenge',
      '/v1/auth/challenge',
      405,
      { error: { code: 'method_not_allowed', message: 'PUT is not allowed here; allowed: POST, OPTIONS.' } },
    ],
    [
      'a /v1 path no route names',
      'GET',
      '/v1/no/such/endpoint',
      'other',
      404,
      { error: { code: 'not_found', message: 'There is no such endpoint. See /v1/openapi.json.' } },
    ],
    [
      'a method an /api route does not serve',
      'POST',
      '/api/health',
      '/api/health',
      405,
      { error: { code: 'method_not_allowed', message: 'POST is not allowed here; allowed: GET, HEAD, OPTIONS.' } },
    ],
    ['an /api preflight', 'OPTIONS', '/api/health', '/api/health', 204, null],
    ['an Action preflight', 'OPTIONS', '/api/actions/pay/alice', '/api/actions/pay/{tag}', 204, null],
  ] as const)(
    '%s (%s %s) is counted under its route and status, and logged under the id it answers',
    async (_name, method, path, route, status, body) => {
      const labels = { route, method, status: String(status) };
      const before = sample(await metrics(), 'http_server_requests_total', labels);
      const res = await readResponse(await fetch(`${app().url}${path}`, { method }));
      expect(res.status).toBe(status);
      if (body) expect(res.json).toEqual(body);
      else expect(res.text).toBe('');
      const requestId = res.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(sample(await metrics(), 'http_server_requests_total', labels)).toBe(before + 1);
      const line = await loggedLine(logs, (l) => l.requestId === requestId && l.msg === 'request');
      expect(line).toMatchObject({ level: 'info', route, method, status, path });
    },
  );
});

describe('GET /api/indexer/status, public and private', () => {
  it('answers counts and slots to anyone, and the reasons only with the operator token', async () => {
    const open = await readResponse(await fetch(`${app().url}/api/indexer/status`));
    expect(open.status).toBe(200);
    expect(open.json).toMatchObject({
      cursor: expect.any(Object),
      finalizedSlot: expect.any(Number),
      deferred: { count: expect.any(Number) },
      skipped: { count: expect.any(Number) },
    });
    expect(open.json).not.toHaveProperty('private');
    const wrong = await readResponse(
      await fetch(`${app().url}/api/indexer/status`, { headers: { authorization: 'Bearer nope-0123456789abcdef' } }),
    );
    expect(wrong.json).not.toHaveProperty('private');
    const full = await readResponse(await fetch(`${app().url}/api/indexer/status`, { headers: operator }));
    expect(full.json).toMatchObject({
      private: { lastRunError: null, deferred: expect.any(Array), recentSkips: expect.any(Array) },
    });
  });
});
