// Webhook delivery benchmark: 50 subscriptions × 1,000 events to a local receiver, delivered by
// an app of its own whose `npm start` interval runs a delivery pass every second (as it does
// by default). The receiver listens on one port per subscription, as 50 integrators' URLs
// would be 50 origins: delivery caps the subscriptions of one origin in delivery at once
// (lib/features/webhooks/deliver.ts TARGET_CONCURRENCY). Printed: deliveries per second through a backlog (all 1,000 events committed
// before the first pass sees them), and the p95 time from an event's commit to its arrival
// while events keep coming at a steady rate.
//   npm run bench -- webhooks
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startApp } from '@/devstack/app';
import { createDatabase } from '@/devstack/postgres';
import { openDb, type Db } from '@/lib/db/client';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { newKeypair } from '@/tests/support/keypair';
import { signIn } from '@/tests/support/sign-in';
import { seedBenchProfiles } from './seed';
import { liftedRateLimits } from '@/devstack/rate-limits';
import { MAX_SUBSCRIPTIONS_PER_OWNER } from '@/lib/features/webhooks/subscriptions';

const SUBSCRIPTIONS = 50;
const EVENTS = 1000;
const TARGETS = { deliveriesPerSecond: 1000, p95CommitToDeliveryMs: 2000 };
/** The steady phase: events per second, for this many seconds. */
const STEADY_RATE = 20;
const STEADY_SECONDS = 10;

/** Receives every delivery, verifies it, and notes when each (subscription, event) first arrived. */
function startReceiver(secrets: Map<string, Webhook>) {
  const arrivals = new Map<string, number>();
  let refused = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end(); // the creation's HEAD probe
      const at = performance.now();
      const sub = req.url!.slice('/hooks/'.length);
      try {
        const body = Buffer.concat(chunks).toString('utf8');
        secrets.get(sub)!.verify(body, req.headers as Record<string, string>);
        const key = `${sub} ${req.headers['webhook-id']}`;
        if (!arrivals.has(key)) arrivals.set(key, at);
        res.writeHead(204).end();
      } catch {
        refused += 1;
        res.writeHead(400).end();
      }
    });
  };
  return { handle, arrivals, refused: () => refused };
}

/** Commits one event per tag in one transaction; returns when it committed. */
async function commitEvents(db: Db, tags: string[]): Promise<number> {
  await db.transaction((tx) => recordIdentityChanges(tx, tags, new Date()));
  return performance.now();
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A database of its own and an app delivering to 127.0.0.1 on its `npm start` interval (1 s). */
export async function startDeliveringApp({ databaseUrl, rpcUrl }: { databaseUrl: string; rpcUrl: string }) {
  const url = await createDatabase(databaseUrl);
  const app = await startApp({
    DATABASE_URL: url,
    SOLANA_RPC_URL: rpcUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_INTERVAL_SECONDS: '1',
    RATE_LIMITS: liftedRateLimits(['webhooks', 'auth'], 100_000),
  });
  return { url, app };
}

export async function benchWebhooks(stack: { databaseUrl: string; rpcUrl: string }) {
  const { url, app } = await startDeliveringApp(stack);
  const { db, close } = await openDb({ driver: 'node-postgres', url }, { poolSize: 4 });
  const secrets = new Map<string, Webhook>();
  const receiver = startReceiver(secrets);
  const servers = Array.from({ length: SUBSCRIPTIONS }, () => createServer(receiver.handle));
  const ports: number[] = [];
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as AddressInfo).port);
  }
  try {
    const tags = await seedBenchProfiles(url, EVENTS);
    // An owner holds at most MAX_SUBSCRIPTIONS_PER_OWNER: one owner for each that many.
    const owners = Math.ceil(SUBSCRIPTIONS / MAX_SUBSCRIPTIONS_PER_OWNER);
    const tokens = await Promise.all(
      Array.from({ length: owners }, async () => (await signIn(app.url, newKeypair())).token),
    );
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const token = tokens[Math.floor(i / MAX_SUBSCRIPTIONS_PER_OWNER)];
      const res = await fetch(`${app.url}/v1/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ url: `http://127.0.0.1:${ports[i]}/hooks/${i}` }),
      });
      if (res.status !== 201) throw new Error(`subscription ${i}: ${res.status} ${await res.text()}`);
      secrets.set(String(i), new Webhook(((await res.json()) as { secret: string }).secret));
    }

    // Backlog: 1,000 events in one transaction, then the interval delivers them.
    const committed = await commitEvents(db, tags);
    const backlog = SUBSCRIPTIONS * EVENTS;
    const complete = await waitFor(() => receiver.arrivals.size >= backlog, 300_000);
    const last = Math.max(...receiver.arrivals.values());
    const first = Math.min(...receiver.arrivals.values());
    const perSecond = receiver.arrivals.size / ((last - first) / 1000);

    // Steady: STEADY_RATE events a second (one transaction each), each timed from its commit.
    const before = receiver.arrivals.size;
    const commits = new Map<string, number>();
    const steadyTags = tags.slice(0, STEADY_RATE * STEADY_SECONDS);
    const started = performance.now();
    for (const [i, tag] of steadyTags.entries()) {
      const at = started + (i * 1000) / STEADY_RATE;
      await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));
      commits.set(tag, await commitEvents(db, [tag]));
    }
    const steadyTotal = before + SUBSCRIPTIONS * steadyTags.length;
    const steadyComplete = await waitFor(() => receiver.arrivals.size >= steadyTotal, 120_000);
    const events = (await (await fetch(`${app.url}/v1/events?limit=1000&after=0-0`)).json()) as {
      events: { id: number; tag: string }[];
    };
    const latest = new Map<number, string>();
    for (const e of events.events) latest.set(e.id, e.tag.slice(1));
    let more = events;
    let after = (events as unknown as { next: string }).next;
    while (more.events.length === 1000) {
      more = (await (await fetch(`${app.url}/v1/events?limit=1000&after=${after}`)).json()) as typeof events;
      after = (more as unknown as { next: string }).next;
      for (const e of more.events) latest.set(e.id, e.tag.slice(1));
    }
    const latencies: number[] = [];
    for (const [key, arrived] of receiver.arrivals) {
      const id = Number(key.split(' ')[1]);
      const tag = latest.get(id);
      const commit = tag && commits.get(tag);
      // the steady events only: a tag's steady event is its second (the backlog's was first)
      if (commit && arrived >= commit && id > EVENTS) latencies.push(arrived - commit);
    }
    const p95 = percentile(latencies, 95);

    console.log('\n## Webhooks: 50 subscriptions × 1,000 events to a local receiver (interval 1 s)');
    console.log(
      `backlog: ${receiver.arrivals.size >= backlog ? backlog : 'INCOMPLETE ' + before} deliveries in ${((last - first) / 1000).toFixed(1)} s (first arrival ${((first - committed) / 1000).toFixed(1)} s after commit)`,
    );
    console.log(
      `  deliveries/s: ${perSecond.toFixed(0)} (target ≥ ${TARGETS.deliveriesPerSecond}) ${complete && perSecond >= TARGETS.deliveriesPerSecond ? 'met' : 'NOT MET'}`,
    );
    console.log(
      `steady: ${STEADY_RATE} events/s for ${STEADY_SECONDS} s to ${SUBSCRIPTIONS} subscriptions (${latencies.length} deliveries timed)`,
    );
    console.log(
      `  commit → delivery: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (target p95 < ${TARGETS.p95CommitToDeliveryMs} ms) ${steadyComplete && p95 < TARGETS.p95CommitToDeliveryMs ? 'met' : 'NOT MET'}`,
    );
    console.log(`  refused by the receiver (bad signature): ${receiver.refused()}`);
  } finally {
    for (const server of servers) server.close();
    await close();
    await app.stop();
  }
}
