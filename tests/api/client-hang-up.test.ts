import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { isClientHangUp, isDatabaseUnavailable } from '@/lib/core/database-errors';
import { signIn } from '../support/sign-in';

/*
 * Only faults of the database count as its outage: a client that hangs up mid-body (Node's
 * `aborted`, code ECONNRESET like a dropped database socket) is logged as a hang-up, is not
 * answered 503, and writes no "database unavailable" line, which the operator's alerts read.
 */

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ DATABASE_URL: inject('databaseUrl'), SOLANA_RPC_URL: inject('rpcUrl') });
});
afterAll(() => app?.stop());

/**
 * Sends the head of a request declaring `Content-Length: 1000`, then one byte of body, then
 * closes its side; answers the status line the server sent back, if any.
 */
function cutOffMidBody(method: string, path: string, headers: Record<string, string> = {}): Promise<string | null> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => resolve(received.split('\r\n')[0] || null));
    socket.on('close', () => resolve(received.split('\r\n')[0] || null));
    socket.on('connect', () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Content-Type: application/json',
        'Content-Length: 1000',
      ];
      for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
      socket.write(`${head.join('\r\n')}\r\n\r\n{`);
      setTimeout(() => socket.end(), 200);
    });
    setTimeout(() => reject(new Error('the server kept the connection open')), 10_000).unref();
  });
}

describe('a request cut off mid-body', () => {
  for (const [name, method, path, auth] of [
    ['POST /v1/resolve', 'POST', '/v1/resolve', false],
    ['PATCH /v1/identity/{tag}', 'PATCH', '/v1/identity/hangup_tag', true],
    ['POST /v1/auth/challenge', 'POST', '/v1/auth/challenge', false],
  ] as const) {
    it(`${name}: no 503, no "database unavailable" line, a hang-up logged`, async () => {
      const headers: Record<string, string> = auth ? { Authorization: `Bearer ${(await signIn(app.url)).token}` } : {};
      const logged = app.output().length;
      const status = await cutOffMidBody(method, path, headers);
      expect(status ?? 'no answer').not.toMatch(/ 503 /);
      if (status) expect(status).toMatch(/^HTTP\/1\.1 400 /);
      // the server logs the request's end once it has read what came
      for (let waited = 0; waited < 5000 && !/client hung up/.test(app.output().slice(logged)); waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 300)); // any line that would follow it
      const log = app.output().slice(logged);
      expect(log).not.toMatch(/database unavailable/i);
      expect(log).toMatch(/client hung up/);
      // and the app still answers
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    });
  }
});

describe('isDatabaseUnavailable', () => {
  const hangUp = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  const socketReset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  it.each([
    ["Node's client abort (`aborted`, ECONNRESET, no syscall)", hangUp, false],
    ['the same wrapped as a cause', new Error('failed', { cause: hangUp }), false],
    ["a database socket's reset", socketReset, true],
    ['a connection terminated', new Error('Connection terminated unexpectedly'), true],
    [
      'a statement timeout (57014)',
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      true,
    ],
  ])('%s → %s', (_name, err, expected) => {
    expect(isDatabaseUnavailable(err)).toBe(expected);
  });
  it('isClientHangUp tells the client abort apart', () => {
    expect([isClientHangUp(hangUp), isClientHangUp(socketReset)]).toEqual([true, false]);
  });
});
