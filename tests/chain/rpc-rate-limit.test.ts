import { describe, expect, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { RPC_TIMEOUT_MS, rateLimitWaitMs } from '@/lib/chain/rpc';
import { postAuthed } from '../support/http';
import { loggedLine } from '../observability/support';
import { captureLogs } from '../support/captured-logs';
import { heldInProcessBehindRpcProxy } from '../support/in-process';
import { signIn } from '../support/sign-in';

/*
 * An RPC provider's 429 is its own error, not an unreachable cluster: the RPC client waits
 * (the provider's Retry-After, else a doubling backoff) and asks again within the call's
 * deadline (RPC_TIMEOUT_MS), and only past it answers 503 `rpc_rate_limited`. The app's
 * handlers run in this process (tests/support/in-process.ts); its log lines are read here.
 */

let mode: 'every-other' | 'always' = 'every-other';
let calls = 0;
let refused = 0;
const logs = captureLogs();
const app = heldInProcessBehindRpcProxy(() => {
  calls += 1;
  if (mode === 'always' || calls % 2 === 1) {
    refused += 1;
    return { status: 429, text: 'Too Many Requests', headers: { 'retry-after': '1' } };
  }
  return undefined;
});

describe('a provider that answers 429', () => {
  it('to some calls: POST /v1/register still answers 200, after waiting out Retry-After', async () => {
    mode = 'every-other';
    const { token } = await signIn(app().url);
    const before = refused;
    const started = Date.now();
    const res = await postAuthed(`${app().url}/v1/register`, token, { tag: randomTag('rl_') });
    expect(res.status, res.text).toBe(200);
    expect(refused).toBeGreaterThan(before);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // Retry-After: 1 was honoured
  });

  it('to every call: 503 naming rate limiting once the deadline passes', async () => {
    mode = 'always';
    const { token } = await signIn(app().url);
    const started = Date.now();
    const res = await postAuthed(`${app().url}/v1/register`, token, { tag: randomTag('rl_') });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({
      error: {
        code: 'rpc_rate_limited',
        message: 'The Solana RPC provider is rate limiting this service; try again shortly.',
      },
    });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 2000);
    // the log is written off the request's path: wait for the line, then look at everything logged
    await loggedLine(logs, (line) => /RPC provider rate limiting/.test(JSON.stringify(line)));
    expect(logs.output()).not.toMatch(/cluster unreachable/);
  });
});

describe('rateLimitWaitMs', () => {
  it.each([
    ['Retry-After in seconds', '2', 0, 2000],
    ['Retry-After as an HTTP date', new Date(Date.UTC(2030, 0, 1, 0, 0, 3)).toUTCString(), 0, 3000],
    ['no Retry-After: the first backoff', null, 0, 200],
    ['no Retry-After: doubling', null, 2, 800],
    ['no Retry-After: capped', null, 10, 2000],
    ['an unreadable Retry-After: the backoff', 'soon', 1, 400],
  ])('%s', (_name, header, attempt, expected) => {
    expect(rateLimitWaitMs(header, attempt, Date.UTC(2030, 0, 1, 0, 0, 0))).toBe(expected);
  });
});
