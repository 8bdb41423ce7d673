// Slow receivers against a healthy one (`npm run bench -- webhook-isolation`): an app of its own
// delivering on its `npm start` interval (1 s), a victim subscription to a fast receiver, and
// events committed at a steady rate. Printed: the victim's commit → delivery delay, p50 and p95,
// first alone, then with 70 slow subscriptions present (7 keys × 10, all to one receiver that
// answers each POST after 9.5 s), each receiving every event too. Target: p95 < 2 s with them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDb } from '@/lib/db/client';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { MAX_SUBSCRIPTIONS_PER_OWNER } from '@/lib/features/webhooks/subscriptions';
import { newKeypair } from '@/tests/support/keypair';
import { signIn } from '@/tests/support/sign-in';
import { seedBenchProfiles } from './seed';
import { percentile, startDeliveringApp } from './webhooks';

const SLOW_KEYS = 7;
const SLOW_ANSWER_MS = 9_500;
/** Events per second, and for how long, in each phase. */
const RATE = 4;
const PHASE_SECONDS = 30;
const TARGET_P95_MS = 2_000;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Answers HEAD (the creation probe) at once and every POST after SLOW_ANSWER_MS, as the red team's receiver did. */
function slowReceiver(): Server {
  return createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') return void res.writeHead(204).end();
    const timer = setTimeout(() => res.writeHead(204).end(), SLOW_ANSWER_MS);
    res.on('close', () => clearTimeout(timer));
  });
}

/** Notes when each tag's event first arrived (each tag changes once; no signature check: the delay is what is measured). */
function victimReceiver(arrivals: Map<string, number>): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        const tag = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tag: string }).tag.slice(1);
        if (!arrivals.has(tag)) arrivals.set(tag, performance.now());
      }
      res.writeHead(204).end();
    });
  });
}

export async function benchWebhookIsolation(stack: { databaseUrl: string; rpcUrl: string }) {
  const { url, app } = await startDeliveringApp(stack);
  const { db, close } = await openDb({ driver: 'node-postgres', url }, { poolSize: 2 });
  const arrivals = new Map<string, number>();
  const victim = victimReceiver(arrivals);
  const slow = slowReceiver();
  const [victimPort, slowPort] = [await listen(victim), await listen(slow)];
  const subscribe = async (token: string, target: string) => {
    const res = await fetch(`${app.url}/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: target }),
    });
    if (res.status !== 201) throw new Error(`subscribing ${target}: ${res.status} ${await res.text()}`);
  };
  /** Commits RATE events a second for PHASE_SECONDS (one transaction each), then the victim's delay of each. */
  const phase = async (tags: string[]) => {
    const commits = new Map<string, number>();
    const started = performance.now();
    for (const [i, tag] of tags.entries()) {
      await new Promise((r) => setTimeout(r, Math.max(0, started + (i * 1000) / RATE - performance.now())));
      await db.transaction((tx) => recordIdentityChanges(tx, [tag], new Date()));
      commits.set(tag, performance.now());
    }
    const deadline = performance.now() + 60_000;
    while ([...commits.keys()].some((tag) => !arrivals.has(tag)) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const delays = [...commits].filter(([tag]) => arrivals.has(tag)).map(([tag, at]) => arrivals.get(tag)! - at);
    return { delays, missing: commits.size - delays.length };
  };
  try {
    const tags = await seedBenchProfiles(url, 2 * RATE * PHASE_SECONDS);
    await subscribe((await signIn(app.url, newKeypair())).token, `http://127.0.0.1:${victimPort}/victim`);
    const alone = await phase(tags.slice(0, RATE * PHASE_SECONDS));
    for (let k = 0; k < SLOW_KEYS; k++) {
      const { token } = await signIn(app.url, newKeypair());
      for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_OWNER; i++)
        await subscribe(token, `http://127.0.0.1:${slowPort}/slow/${k}/${i}`);
    }
    const beside = await phase(tags.slice(RATE * PHASE_SECONDS));

    const line = (name: string, { delays, missing }: { delays: number[]; missing: number }) =>
      `${name}: p50 ${percentile(delays, 50).toFixed(0)} ms, p95 ${percentile(delays, 95).toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms (${delays.length} events${missing ? `, ${missing} NOT DELIVERED` : ''})`;
    console.log(
      `\n## Webhook isolation: a victim's commit → delivery delay, ${RATE} events/s for ${PHASE_SECONDS} s (interval 1 s)`,
    );
    console.log(`  ${line('alone', alone)}`);
    console.log(
      `  ${line(`with ${SLOW_KEYS * MAX_SUBSCRIPTIONS_PER_OWNER} slow subscriptions (${SLOW_KEYS} keys × ${MAX_SUBSCRIPTIONS_PER_OWNER}, answering after ${SLOW_ANSWER_MS / 1000} s)`, beside)}`,
    );
    const p95 = percentile(beside.delays, 95);
    console.log(
      `  target p95 < ${TARGET_P95_MS} ms with them: ${beside.missing === 0 && p95 < TARGET_P95_MS ? 'met' : 'NOT MET'}`,
    );
  } finally {
    victim.close();
    slow.closeAllConnections();
    slow.close();
    await close();
    await app.stop();
  }
}
