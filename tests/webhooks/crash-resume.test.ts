import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { readIdentityEvents, type FeedPosition } from '@/lib/features/feed/read-events';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { DELIVERY_TIMEOUT_MS } from '@/lib/features/webhooks/delivery-turn';
import { leaseMsFor } from '@/lib/features/webhooks/leases';
import { createWebhook } from '@/lib/features/webhooks/subscriptions';
import { ownDatabase } from '../support/database';
import { newKeypair } from '../support/keypair';
import { WebhookReceiver } from '../support/webhook-receiver';

/*
 * A delivering process killed with SIGKILL mid-attempt: the app delivers on its `npm start`
 * interval, the receiver holds the first delivery open, and the app dies while it waits. Its
 * lease runs out within leaseMsFor(DELIVERY_TIMEOUT_MS) of its last renewal (8 s, where it was
 * 40 s), and a pass of another process (this one) takes the subscription over: nothing lost,
 * the event in flight delivered again with the same id and body, everything in feed order.
 */

const EVENTS = 20;

describe('a delivering process killed mid-attempt', () => {
  const database = ownDatabase();
  let app: RunningApp | null = null;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: inject('rpcUrl'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_INTERVAL_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
  });

  it('resumes within the lease (seconds), losing nothing and keeping feed order', async () => {
    const { db } = database;
    const created = await createWebhook(
      db,
      { owner: newKeypair().publicKey, url: receiver.url },
      { now: new Date(), config: { allowPrivateTargets: true } },
    );
    receiver.secrets = [created.secret];
    // The first delivery is held open for longer than the app will live; the rest are answered at once.
    receiver.answer = (i) => (i === 0 ? { status: 200, delayMs: 3_000 } : { status: 200 });
    const tags = Array.from({ length: EVENTS }, () => randomTag('cr_'));
    for (const tag of tags) await insertIdentity(db, { tag });
    await db.transaction((tx) => recordIdentityChanges(tx, tags, new Date()));

    const inFlight = performance.now();
    while (receiver.headers.length === 0) {
      expect(performance.now() - inFlight, 'the app delivered nothing').toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    process.kill(app!.pid, 'SIGKILL');
    const killedAt = performance.now();
    app = null; // killed: nothing to stop

    // Another process's pass right away: the dead one's lease still holds the subscription.
    const pass = () => deliverWebhooks({ db, config: { allowPrivateTargets: true }, clock: () => new Date() });
    expect((await pass()).subscriptions).toBe(0);
    let resumedAt = 0;
    while (receiver.firstArrivals().length < EVENTS) {
      expect(performance.now() - killedAt, 'delivery did not resume').toBeLessThan(30_000);
      const before = receiver.headers.length;
      await pass();
      if (!resumedAt && receiver.headers.length > before) resumedAt = performance.now();
      await new Promise((r) => setTimeout(r, 100));
    }
    const resumedAfterMs = resumedAt - killedAt;
    expect(resumedAfterMs).toBeGreaterThan(0);
    expect(resumedAfterMs).toBeLessThan(leaseMsFor(DELIVERY_TIMEOUT_MS) + 1_000);

    const feed = (
      await readIdentityEvents(db, {
        after: { xid: created.cursor.split('-')[0], id: Number(created.cursor.split('-')[1]) } as FeedPosition,
        limit: 1000,
        maxBytes: 1 << 20,
      })
    ).page.events;
    expect(feed).toHaveLength(EVENTS);
    expect(receiver.firstArrivals()).toEqual(feed.map((e) => e.id));
    // The attempt the dead process had in flight came again, with the same id and body.
    const first = receiver.arrivals.filter((e) => e.id === feed[0].id);
    expect(first.length).toBe(2);
    expect(first[1]).toEqual(first[0]);
    expect(receiver.refused).toEqual([]);
  });
});
