import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import type { DeliveryPass } from '@/lib/features/webhooks/delivery-turn';
import { ownDatabase } from '../support/database';
import { clientHeaders, readResponse, type ApiResponse } from '../support/http';
import { newKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';
import { passUntil, WebhookReceiver } from '../support/webhook-receiver';
import { liftedRateLimits } from '@/devstack/rate-limits';

/*
 * Signed webhooks end to end: an app of its own (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, so it may
 * deliver to receivers on 127.0.0.1) and a database of its own, writers changing identities
 * through PATCH, and delivery passes run here as the cron route runs them, with a clock the
 * test moves (a minute down, a day failing) and a short backoff base, so nothing sleeps long.
 */

/** Room for a receiver's prompt answer on a busy machine (at load 14, 300 ms read some 503s as no answer). */
const TIMEOUT_MS = 600;

describe('webhooks, delivered', () => {
  const database = ownDatabase();
  let app: RunningApp;
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const pass = (overrides: Partial<DeliveryPass> = {}) =>
    deliverWebhooks({
      db: database.db,
      config: { allowPrivateTargets: true },
      timeoutMs: TIMEOUT_MS,
      clock,
      retryBaseMs: 100,
      budgetMs: 3000,
      ...overrides,
    });

  beforeAll(async () => {
    app = await startApp({
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: inject('rpcUrl'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      RATE_LIMITS: liftedRateLimits(['auth', 'webhooks', 'profile', 'profileKey']),
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const call = async (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
    readResponse(
      await fetch(`${app.url}${path}`, {
        method,
        headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  async function subscribe(token: string, receiver: WebhookReceiver, tags?: string[]) {
    const res = await call('POST', '/v1/webhooks', token, { url: receiver.url, ...(tags ? { tags } : {}) });
    expect(res.status, res.text).toBe(201);
    const created = res.json as { id: string; secret: string; cursor: string };
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.secrets = [created.secret];
    return created;
  }

  /** Every event of the feed after `cursor`, through GET /v1/events. */
  async function feedAfter(cursor: string): Promise<{ id: number; tag: string }[]> {
    const events: { id: number; tag: string }[] = [];
    for (let after = cursor; ;) {
      const page = (await (await fetch(`${app.url}/v1/events?after=${after}&limit=1000`)).json()) as {
        events: { id: number; tag: string }[];
        next: string;
      };
      events.push(...page.events);
      if (page.events.length < 1000) return events;
      after = page.next;
    }
  }

  /** 5 writers, each owning 2 tags, make `changes` PATCHes in all, concurrently (or `count`, given to `run`). */
  async function writers(changes: number) {
    const owners = await Promise.all(Array.from({ length: 5 }, async () => signIn(app.url, newKeypair())));
    const tags: string[][] = [];
    for (const { keypair } of owners) {
      const mine = [randomTag('wh_'), randomTag('wh_')];
      for (const tag of mine) await insertIdentity(database.db, { tag, owner: keypair.publicKey });
      tags.push(mine);
    }
    const run = (count = changes) =>
      Promise.all(
        owners.map(async ({ token }, w) => {
          for (let i = 0; i < count / owners.length; i++) {
            const tag = tags[w][i % 2];
            const res = await call('PATCH', `/v1/identity/${tag}`, token, {
              displayName: `writer ${w} change ${i}`,
              bio: i % 3 ? `bio ${i}` : null,
            });
            expect(res.status, res.text).toBe(200);
          }
        }),
      );
    return { tags: tags.flat(), run };
  }

  it('a receiver that fails, is slow, is down for a minute and recovers ends with the exact replica, in feed order', async () => {
    const owner = await signIn(app.url, newKeypair());
    const receiver = new WebhookReceiver();
    await receiver.start();
    const subscription = await subscribe(owner.token, receiver);
    const { tags, run } = await writers(200);

    // fails its first 3 answers, then is slower than the timeout for 4, then answers at once
    receiver.answer = (i) =>
      i < 3 ? { status: 503 } : i < 7 ? { status: 200, delayMs: TIMEOUT_MS * 2 } : { status: 200 };
    let written = false;
    // 180 changes while it fails and is slow, 20 more once it is down (so that it misses some
    // whatever the writers' pace against the passes': the first ones may all be caught up first)
    const writing = run(180);
    let wentDown = false;
    let downUntil = 0;
    const failures: string[] = [];
    for (let round = 0; round < 400; round++) {
      const summary = await pass();
      if (summary.failed) {
        const [state] = ((await call('GET', '/v1/webhooks', owner.token)).json as { webhooks: { lastError: string }[] })
          .webhooks;
        failures.push(state.lastError);
      }
      const posts = receiver.headers.length;
      if (!wentDown && posts >= 9) {
        wentDown = true;
        await receiver.stop(); // down for a minute of the clock
        downUntil = clock().getTime() + 60_000;
        await writing;
        await run(20);
        written = true;
      }
      if (wentDown && downUntil && clock().getTime() >= downUntil) {
        await receiver.start(receiver.port);
        downUntil = 0;
      }
      offsetMs += downUntil ? 5_000 : 1_000; // the clock moves on between passes
      if (written && !downUntil && wentDown) {
        const [state] = (
          (await call('GET', '/v1/webhooks', owner.token)).json as { webhooks: { cursor: string; failures: number }[] }
        ).webhooks;
        if (state.failures === 0 && (await feedAfter(state.cursor)).length === 0) break;
      }
    }
    await writing;
    expect(written).toBe(true);

    // it went through every state: errors, answers later than the timeout, refused connections
    expect(failures.slice(0, 7)).toEqual([
      ...Array(3).fill('answered 503'),
      ...Array(4).fill(`no answer within ${TIMEOUT_MS} ms`),
    ]);
    expect(failures.slice(7).length).toBeGreaterThanOrEqual(3);
    for (const error of failures.slice(7)) expect(error).toMatch(/ECONNREFUSED/);
    expect(receiver.refused).toEqual([]);
    const feed = await feedAfter(subscription.cursor);
    expect(feed.length).toBe(200);
    // none missing, none extra, each first applied in feed order; duplicates came and were dropped
    expect(receiver.firstArrivals()).toEqual(feed.map((e) => e.id));
    expect(receiver.arrivals.length).toBeGreaterThan(feed.length);
    for (const tag of tags) {
      const res = await fetch(`${app.url}/v1/identity/${tag}`);
      expect(receiver.replica.get(`@${tag}`), tag).toEqual(await res.json());
    }
    // every attempt carried the event id as webhook-id
    for (const headers of receiver.headers) expect(feed.map((e) => String(e.id))).toContain(headers['webhook-id']);

    const deliveries = (await call('GET', `/v1/webhooks/${subscription.id}/deliveries`, owner.token)).json as {
      deliveries: { status: number | null; error: string | null; latencyMs: number }[];
    };
    expect(deliveries.deliveries.length).toBe(50);
    expect(deliveries.deliveries[0]).toMatchObject({ status: 200, error: null });
    await receiver.stop();
  });

  it('a subscription with tags receives only those tags', async () => {
    const owner = await signIn(app.url, newKeypair());
    const all = new WebhookReceiver();
    const some = new WebhookReceiver();
    await Promise.all([all.start(), some.start()]);
    const { tags, run } = await writers(20);
    const wanted = [tags[0], `@${tags[3]}`];
    const sub = await subscribe(owner.token, some, wanted);
    await subscribe(owner.token, all);
    await run();
    await passUntil(pass, () => some.firstArrivals().length >= 4);
    const feed = await feedAfter(sub.cursor);
    await passUntil(pass, () => all.firstArrivals().length >= feed.length);
    const expected = feed.filter((e) => e.tag === `@${tags[0]}` || e.tag === `@${tags[3]}`).map((e) => e.id);
    expect(expected.length).toBe(4);
    expect(some.firstArrivals()).toEqual(expected);
    expect(new Set(some.arrivals.map((e) => e.tag))).toEqual(new Set([`@${tags[0]}`, `@${tags[3]}`]));
    expect(all.firstArrivals()).toEqual(feed.map((e) => e.id));
    const listed = (await call('GET', '/v1/webhooks', owner.token)).json as { webhooks: { tags: string[] | null }[] };
    expect(listed.webhooks.map((w) => w.tags)).toEqual([[`@${tags[0]}`, `@${tags[3]}`].sort(), null]);
    await Promise.all([all.stop(), some.stop()]);
  });

  it('a rotated secret: deliveries carry a signature under the new and the previous secret', async () => {
    const owner = await signIn(app.url, newKeypair());
    const receiver = new WebhookReceiver();
    await receiver.start();
    const created = await subscribe(owner.token, receiver);
    const rotated = await call('POST', `/v1/webhooks/${created.id}/rotate`, owner.token);
    expect(rotated.status).toBe(200);
    const { secret } = rotated.json as { secret: string };
    expect(secret).not.toBe(created.secret);
    const { run } = await writers(5);
    await run();
    for (const secrets of [[secret], [created.secret]]) {
      receiver.secrets = secrets;
      const before = receiver.headers.length;
      await passUntil(pass, () => receiver.headers.length > before);
      expect(receiver.refused).toEqual([]);
      expect(receiver.arrivals.length).toBeGreaterThan(0);
      expect(receiver.headers.at(-1)!['webhook-signature'].split(' ')).toHaveLength(2);
      await call('POST', `/v1/webhooks/${created.id}/replay`, owner.token, { after: created.cursor });
    }
    await receiver.stop();
  });

  it('a second owner cannot list, delete, replay, rotate or read the deliveries of the first owner’s subscription', async () => {
    const first = await signIn(app.url, newKeypair());
    const second = await signIn(app.url, newKeypair());
    const receiver = new WebhookReceiver();
    await receiver.start();
    const { id } = await subscribe(first.token, receiver);
    const notFound = { error: { code: 'not_found', message: 'No webhook subscription with this id.' } };
    expect((await call('GET', '/v1/webhooks', second.token)).json).toEqual({ webhooks: [] });
    for (const [method, path, body] of [
      ['DELETE', `/v1/webhooks/${id}`, undefined],
      ['POST', `/v1/webhooks/${id}/replay`, { after: '0-0' }],
      ['POST', `/v1/webhooks/${id}/rotate`, undefined],
      ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
    ] as const) {
      const res = await call(method, path, second.token, body);
      expect([res.status, res.json], `${method} ${path}`).toEqual([404, notFound]);
    }
    const mine = (await call('GET', '/v1/webhooks', first.token)).json as { webhooks: { id: string }[] };
    expect(mine.webhooks.map((w) => w.id)).toEqual([id]);
    const deleted = await call('DELETE', `/v1/webhooks/${id}`, first.token);
    expect(deleted.status).toBe(204);
    expect((await call('DELETE', `/v1/webhooks/${id}`, first.token)).status).toBe(404);
    await receiver.stop();
  });

  it('a target that redirects is refused at creation; an owner holds at most 10 subscriptions', async () => {
    const owner = await signIn(app.url, newKeypair());
    const redirecting = new WebhookReceiver();
    await redirecting.start();
    const redirect = await import('node:http').then(({ createServer }) =>
      createServer((_req, res) => res.writeHead(302, { location: redirecting.url }).end()),
    );
    await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
    const port = (redirect.address() as { port: number }).port;
    const res = await call('POST', '/v1/webhooks', owner.token, { url: `http://127.0.0.1:${port}/hooks` });
    expect([res.status, res.json]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message: '`url`: answers with a redirect (302); give the URL it redirects to',
        },
      },
    ]);
    redirect.close();
    for (let i = 0; i < 10; i++)
      expect((await call('POST', '/v1/webhooks', owner.token, { url: redirecting.url })).status).toBe(201);
    const over = await call('POST', '/v1/webhooks', owner.token, { url: redirecting.url });
    expect([over.status, over.json]).toEqual([
      409,
      { error: { code: 'conflict', message: 'An owner may hold 10 webhook subscriptions; delete one first.' } },
    ]);
    const list = (await call('GET', '/v1/webhooks', owner.token)).json as { webhooks: { id: string }[] };
    for (const { id } of list.webhooks) await call('DELETE', `/v1/webhooks/${id}`, owner.token);
    await redirecting.stop();
  });

  it('after 24 hours of failures a subscription is disabled, the reason shown to its owner; replay starts it again', async () => {
    // the other subscriptions go first: this test moves the clock by a day
    const owner = await signIn(app.url, newKeypair());
    const dead = new WebhookReceiver();
    await dead.start();
    const created = await subscribe(owner.token, dead);
    await dead.stop();
    const { run } = await writers(5);
    await run();
    await pass({ retryBaseMs: 5_000, clock: () => new Date(Date.now() + offsetMs) });
    let state:
      { state: string; disabledReason: string | null; failures: number; nextAttemptAt: string | null } | undefined;
    for (let hour = 0; hour < 30; hour++) {
      offsetMs += 2 * 60 * 60 * 1000;
      await pass({ retryBaseMs: 5_000 });
      state = ((await call('GET', '/v1/webhooks', owner.token)).json as { webhooks: NonNullable<typeof state>[] })
        .webhooks[0];
      if (state.state === 'disabled') break;
    }
    expect(state).toMatchObject({ state: 'disabled', nextAttemptAt: null });
    expect(state!.disabledReason).toMatch(
      /^Disabled after failing for 2\d hours \(\d+ attempts since .+\); last error: .+\. Replay to start again\.$/,
    );
    const replayed = await call('POST', `/v1/webhooks/${created.id}/replay`, owner.token, { after: created.cursor });
    expect(replayed.json).toMatchObject({ state: 'active', failures: 0, disabledReason: null, cursor: created.cursor });
  });
});
