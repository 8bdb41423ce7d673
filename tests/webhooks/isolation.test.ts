import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { TARGET_CONCURRENCY } from '@/lib/features/webhooks/leases';
import { createWebhook } from '@/lib/features/webhooks/subscriptions';
import { isolatedDatabase } from '../support/database';
import { newKeypair } from '../support/keypair';
import { WebhookReceiver } from '../support/webhook-receiver';

/*
 * A slow receiver holds only its own share (lib/features/webhooks/deliver.ts): 20 subscriptions to one
 * target that answers later than the attempt's limit, and one healthy subscription beside
 * them. The slow attempts take three rounds of TARGET_CONCURRENCY (7.5 s); meanwhile the same
 * pass gives the healthy one each change within a fraction of a second of its commit, the slow
 * target never has more than TARGET_CONCURRENCY requests open at once, and its attempts end at
 * the time limit, as failures with backoff.
 */

const TIMEOUT_MS = 2_500;
const SLOW = 20;
const CHANGES = 10;

/** Answers each POST after 3 s; counts the requests open at once. */
function silentTarget(): { server: Server; open: () => number; most: () => number; requests: () => number } {
  let open = 0;
  let most = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') return void res.writeHead(204).end(); // the creation's probe
    requests += 1;
    open += 1;
    most = Math.max(most, open);
    const timer = setTimeout(() => res.writeHead(204).end(), 3_000);
    res.on('close', () => {
      clearTimeout(timer);
      open -= 1;
    });
  });
  return { server, open: () => open, most: () => most, requests: () => requests };
}

describe('a slow target beside a healthy one', () => {
  // A server of its own: its deliveries are timed, and an event is served only once no older
  // transaction is open anywhere on the server (another file's may be, on the shared one).
  const database = isolatedDatabase();
  const healthy = new WebhookReceiver();
  const slow = silentTarget();
  let slowUrl = '';

  beforeAll(async () => {
    await healthy.start();
    await new Promise<void>((resolve) => slow.server.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await healthy.stop();
    slow.server.closeAllConnections();
    slow.server.close();
  });

  it('the healthy subscription is served within the poll while the slow target holds at most its share', async () => {
    const { db } = database;
    const config = { allowPrivateTargets: true };
    for (let i = 0; i < SLOW; i++)
      await createWebhook(
        db,
        { owner: newKeypair().publicKey, url: `${slowUrl}/slow/${i}` },
        { now: new Date(), config },
      );
    const created = await createWebhook(
      db,
      { owner: newKeypair().publicKey, url: healthy.url },
      { now: new Date(), config },
    );
    healthy.secrets = [created.secret];
    const tags = Array.from({ length: CHANGES }, () => randomTag('iso_'));
    for (const tag of tags) await insertIdentity(db, { tag });

    // The first change before the pass, the rest while the slow attempts run, 400 ms apart.
    const committed = new Map<string, number>();
    const commit = async (tag: string) => {
      await db.transaction((tx) => recordIdentityChanges(tx, [tag], new Date()));
      committed.set(`@${tag}`, performance.now());
    };
    const arrived = new Map<string, number>();
    healthy.answer = () => ({ status: 200 });
    const watching = setInterval(() => {
      for (const e of healthy.arrivals) if (!arrived.has(e.tag)) arrived.set(e.tag, performance.now());
    }, 5);
    await commit(tags[0]);
    const passing = deliverWebhooks({ db, config, clock: () => new Date(), timeoutMs: TIMEOUT_MS, budgetMs: 8_000 });
    for (const tag of tags.slice(1)) {
      await new Promise((r) => setTimeout(r, 400));
      await commit(tag);
    }
    const summary = await passing;
    clearInterval(watching);

    expect(healthy.firstArrivals()).toHaveLength(CHANGES);
    const delays = [...committed].map(([tag, at]) => arrived.get(tag)! - at);
    // The poll is 200 ms; the machine is shared (a busy one adds a second), so allow for it: still
    // below the slow attempts' 2.5 s, which a healthy subscription queued behind them would wait.
    for (const delay of delays) expect(delay).toBeLessThan(2_000);
    expect(slow.most()).toBeLessThanOrEqual(TARGET_CONCURRENCY);
    expect(slow.most()).toBeGreaterThan(0);
    // Every slow attempt ended at the limit as a failure, with a retry scheduled later.
    expect(summary.failed).toBe(slow.requests());
    const states = await db.query.webhookSubscriptions.findMany();
    const slowStates = states.filter((s) => s.url.startsWith(slowUrl) && s.failures > 0);
    expect(slowStates.length).toBeGreaterThan(0);
    for (const s of slowStates) expect(s.lastError).toBe(`no answer within ${TIMEOUT_MS} ms`);
  });
});
