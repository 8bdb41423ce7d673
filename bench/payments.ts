// Payment finding benchmark (DESIGN.md "Payments and receipts", issue "Payments you can trust"):
// 100,000 open references across 1,000 payees, and 1,000 junk references more on one of them,
// in a database of the bench's own; the finding pass run once a second as the cron would.
// Printed: the RPC calls and the time of a run with nothing paid (target: one call per active
// payout account), the same while payments land (target: plus one per payment found), and the
// time from a payment landing (`confirmed` at the cluster) to its receipt being settled, p50 / p95
// (target: under 2 s).
//   npm run bench -- payments
import type { Address } from '@solana/kit';
import { createDatabase } from '@/devstack/postgres';
import type { Stack } from '@/devstack/stack';
import { openDb } from '@/lib/db/client';
import { paymentReferences } from '@/lib/db/schema';
import { findPayments, type FindPaymentsSummary } from '@/lib/features/payments/find-payments';
import { fundedSigner, rpcAt } from '@/tests/support/chain';
import { newKeypair } from '@/tests/support/keypair';
import { findingAt, payWithReference } from '@/tests/payments/paying';

/** Attribution is judged against a key of the bench's own (its payments carry no memo: none is attributed). */
const IDENTITY = newKeypair().publicKey as Address;

const PAYEES = 1000;
const PER_PAYEE = 100;
const JUNK = 1000;
const PAID = 20;
const RUN_EVERY_MS = 1000;
const QUIET_RUNS = 5;
const TTL_MS = 1800 * 1000;
const ROWS_PER_INSERT = 2000;

const percentile = (xs: number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

interface Run {
  ms: number;
  summary: FindPaymentsSummary;
  endedAt: number;
}

export async function benchPayments(stack: Stack): Promise<void> {
  const url = await createDatabase(stack.databaseUrl);
  const { db, close } = await openDb({ driver: 'node-postgres', url }, { poolSize: 10 });
  const rpc = rpcAt(stack.rpcUrl);
  try {
    const payees = Array.from({ length: PAYEES }, () => newKeypair().publicKey);
    const now = Date.now();
    const rowsFor = (recipient: string, n: number) =>
      Array.from({ length: n }, () => {
        // Issued over the last 25 minutes: all still open.
        const issuedAt = new Date(now - Math.random() * 25 * 60_000);
        return {
          reference: newKeypair().publicKey,
          tag: 'bench',
          recipient,
          amount: '0.001',
          asset: 'SOL',
          decimals: 9,
          issuedAt,
          expiresAt: new Date(issuedAt.getTime() + TTL_MS),
        };
      });
    const rows = [...payees.flatMap((payee) => rowsFor(payee, PER_PAYEE)), ...rowsFor(payees[0]!, JUNK)];
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await db.insert(paymentReferences).values(rows.slice(i, i + ROWS_PER_INSERT));
    }

    const run = async (): Promise<Run> => {
      const started = performance.now();
      const summary = await findPayments({ db, cluster: findingAt(stack.rpcUrl), now: new Date(), identity: IDENTITY });
      const endedAt = performance.now();
      return { ms: endedAt - started, summary, endedAt };
    };

    // The first run finds no cursor (each account read without one); then quiet runs: nothing paid.
    const first = await run();
    const quiet: Run[] = [];
    for (let i = 0; i < QUIET_RUNS; i += 1) quiet.push(await run());

    // Payments land while the pass runs every second: to the junk-flooded payee first, then to others.
    const payer = await fundedSigner(rpc, 10);
    const targets = Array.from({ length: PAID }, (_, i) => {
      const recipient = i === 0 ? payees[0]! : payees[1 + Math.floor(Math.random() * (PAYEES - 1))]!;
      const row = rows.find((r) => r.recipient === recipient && !r.tag.startsWith('paid'))!;
      row.tag = 'paid';
      return row;
    });
    const landedAt = new Map<string, number>();
    const settledAt = new Map<string, number>();
    const busy: Run[] = [];
    let paying = true;
    const deadline = performance.now() + 5 * 60_000;
    const cron = (async () => {
      while ((paying || settledAt.size < landedAt.size) && performance.now() < deadline) {
        const tick = performance.now();
        const result = await run();
        busy.push(result);
        for (const reference of result.summary.changed)
          if (!settledAt.has(reference)) settledAt.set(reference, result.endedAt);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, RUN_EVERY_MS - (performance.now() - tick))));
      }
    })();
    for (const target of targets) {
      await payWithReference(rpc, payer, {
        to: target.recipient as Address,
        lamports: 1_000_000,
        reference: target.reference,
      });
      landedAt.set(target.reference, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 500));
    }
    paying = false;
    await cron;

    const foundAfterMs = [...landedAt].flatMap(([reference, at]) =>
      settledAt.has(reference) ? [settledAt.get(reference)! - at] : [],
    );
    const quietMs = quiet.map((r) => r.ms);
    const busyMs = busy.map((r) => r.ms);
    const overBudget = busy.filter(
      (r) => r.summary.rpcCalls > r.summary.accounts + r.summary.confirmed + r.summary.finalized + 1,
    );
    console.log(
      `\n## payments: finding pass (${rows.length.toLocaleString('en')} open references across ${PAYEES} payees, ${JUNK} of them junk on one payee; a run every ${RUN_EVERY_MS} ms)`,
    );
    console.log(
      `- first run (no cursors yet): ${first.summary.rpcCalls} RPC calls for ${first.summary.accounts} payout accounts, ${first.ms.toFixed(0)} ms`,
    );
    console.log(
      `- runs with nothing paid: ${Math.max(...quiet.map((r) => r.summary.rpcCalls))} RPC calls for ${quiet[0]!.summary.accounts} payout accounts; ` +
        `p50 ${percentile(quietMs, 50).toFixed(0)} ms, p95 ${percentile(quietMs, 95).toFixed(0)} ms`,
    );
    console.log(
      `- ${busy.length} runs while ${PAID} payments landed: RPC calls per run max ${Math.max(...busy.map((r) => r.summary.rpcCalls))} ` +
        `(accounts + payments found + finality checks; runs over one call per account plus one per payment found and one finality check: ${overBudget.length}); ` +
        `p50 ${percentile(busyMs, 50).toFixed(0)} ms, p95 ${percentile(busyMs, 95).toFixed(0)} ms`,
    );
    console.log(
      `- payment landed (confirmed) → receipt settled, ${foundAfterMs.length} of ${PAID} (the first to the payee with the junk): ` +
        `p50 ${(percentile(foundAfterMs, 50) / 1000).toFixed(2)} s, p95 ${(percentile(foundAfterMs, 95) / 1000).toFixed(2)} s` +
        (foundAfterMs.length < PAID ? ` (${PAID - foundAfterMs.length} not settled within 5 minutes)` : ''),
    );
  } finally {
    await close();
  }
}
