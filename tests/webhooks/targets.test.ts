import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { retryDelayMs } from '@/lib/core/schedule';
import { parseTarget, TargetRefused } from '@/lib/features/webhooks/target';
import { clientHeaders, readResponse } from '../support/http';
import { signIn } from '../support/sign-in';

/*
 * Webhook targets on the shared app, whose WEBHOOK_ALLOW_PRIVATE_TARGETS is off (the
 * default): a target on a loopback or private address, or one that redirects, is refused at
 * creation, in the envelope, naming why.
 */

const appUrl = inject('appUrl');

describe('POST /v1/webhooks refuses a target that is not public https', () => {
  let token: string;
  const redirect = createServer((_req, res) => res.writeHead(302, { location: 'https://hooks.example.org/' }).end());
  let redirectPort = 0;

  beforeAll(async () => {
    token = (await signIn(appUrl)).token;
    await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
    redirectPort = (redirect.address() as AddressInfo).port;
  });
  afterAll(() => {
    redirect.close();
  });

  const create = async (url: string) =>
    readResponse(
      await fetch(`${appUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
        body: JSON.stringify({ url }),
      }),
    );

  const refused = (why: string) => ({ error: { code: 'invalid_request', message: `\`url\`: ${why}` } });

  it.each([
    ['https://127.0.0.1/hooks', 'is not on a public address (127.0.0.1)'],
    ['https://10.1.2.3/hooks', 'is not on a public address (10.1.2.3)'],
    ['https://[::1]/hooks', 'is not on a public address (::1)'],
    ['http://hooks.example.org/', 'must be an https URL'],
    ['https://hooks.example.org:8443/', 'must use port 443'],
    ['https://user:pw@hooks.example.org/', 'must not carry a user name or password'],
    ['not a url', 'is not a URL'],
  ])('%s: 400, %s', async (url, why) => {
    const res = await create(url);
    expect([res.status, res.json]).toEqual([400, refused(why)]);
  });

  it('a host name that resolves to a loopback address is refused without naming the address it resolves to', async () => {
    const res = await create('https://localhost/hooks');
    expect([res.status, res.json]).toEqual([
      400,
      refused('names a host that does not resolve to a public address (localhost)'),
    ]);
  });

  it('a host name that does not resolve gets the same words: the answer cannot tell an internal name from a missing one', async () => {
    const res = await create('https://no-such-host.invalid/hooks');
    expect([res.status, res.json]).toEqual([
      400,
      refused('names a host that does not resolve to a public address (no-such-host.invalid)'),
    ]);
  });

  it('a target that redirects (here on 127.0.0.1) is refused', async () => {
    const res = await create(`http://127.0.0.1:${redirectPort}/hooks`);
    expect([res.status, res.json]).toEqual([400, refused('must be an https URL')]);
    expect(() => parseTarget(`https://127.0.0.1:${redirectPort}/hooks`, { allowPrivateTargets: false })).toThrow(
      TargetRefused,
    );
  });

  it('needs a session token', async () => {
    const res = await readResponse(await fetch(`${appUrl}/v1/webhooks`, { headers: clientHeaders() }));
    expect([res.status, res.json]).toEqual([
      401,
      { error: { code: 'unauthorized', message: 'A valid session token is required.' } },
    ]);
  });
});

describe('retries', () => {
  it('the first comes within 10 s, each next one twice as late, up to an hour', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(11)).toBe(60 * 60 * 1000);
    expect(retryDelayMs(400)).toBe(60 * 60 * 1000);
  });
});
