// Payment finding benchmark (DESIGN.md "Payments and receipts"): 1,000 open references in the
// mirror, the finding pass run once a second as the cron would. Printed: the RPC calls and the
// time one run spends, and the time from a payment landing to its receipt being `confirmed`
// (p50 / p95) for references that were already looked up once unpaid (the till showed the QR
// code, the pass found nothing, then the customer paid), among a backlog issued over 23 hours.
//   npm run bench -- payments
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import type { Stack } from '@/devstack/stack';
import { openDb } from '@/lib/db/client';
import { paymentReferences } from '@/lib/db/schema';
import { findPayments, REFERENCES_PER_RUN } from '@/lib/features/payments/find-payments';
import { eq } from 'drizzle-orm';

/** Attribution is judged against a key of the bench's own (its payments carry no memo: none is attributed). */
const IDENTITY = Keypair.generate().publicKey;

const OPEN = 1000;
const PAID = 20;
const RUN_EVERY_MS = 1000;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function benchPayments(stack: Stack): Promise<void> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: stack.databaseUrl }, { poolSize: 4 });
  const connection = new Connection(stack.rpcUrl, 'confirmed');
  try {
    const recipient = Keypair.generate().publicKey.toBase58();
    const issued = (n: number, ageMs: () => number) =>
      Array.from({ length: n }, () => ({
        reference: Keypair.generate().publicKey.toBase58(),
        tag: 'bench',
        recipient,
        amount: '0.001',
        asset: 'SOL',
        decimals: 9,
        issuedAt: new Date(Date.now() - ageMs()),
      }));
    // The backlog: references issued over the last 23 hours, never paid.
    const fresh = (n: number) => issued(n, () => Math.random() * 23 * 3600_000);
    for (let i = 0; i < OPEN; i += 500) await db.insert(paymentReferences).values(fresh(Math.min(500, OPEN - i)));
    // The ones paid now: issued a minute ago, as at a till.
    const paid = issued(PAID, () => 60_000);
    await db.insert(paymentReferences).values(paid);

    // Every reference looked up once, unpaid: each of the paid ones now waits for its turn.
    const runs: { ms: number; rpcCalls: number; checked: number }[] = [];
    for (let i = 0; i < Math.ceil((OPEN + PAID) / REFERENCES_PER_RUN); i += 1) {
      const started = performance.now();
      const summary = await findPayments({ db, connection, now: new Date(), identity: IDENTITY });
      runs.push({ ms: performance.now() - started, rpcCalls: summary.rpcCalls, checked: summary.checked });
    }

    const payer = Keypair.generate();
    await connection.confirmTransaction({
      signature: await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL),
      ...(await connection.getLatestBlockhash()),
    });
    const landedAt = new Map<string, number>();
    await Promise.all(
      paid.map(async ({ reference }) => {
        const transfer = SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: new PublicKey(recipient),
          lamports: 1_000_000,
        });
        transfer.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
        const latest = await connection.getLatestBlockhash();
        const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(transfer);
        tx.sign(payer);
        await connection.confirmTransaction(
          { signature: await connection.sendRawTransaction(tx.serialize()), ...latest },
          'confirmed',
        );
        landedAt.set(reference, performance.now());
      }),
    );

    const foundAfterMs: number[] = [];
    const waiting = new Set(paid.map((p) => p.reference));
    const deadline = performance.now() + 5 * 60_000;
    while (waiting.size > 0 && performance.now() < deadline) {
      const tick = performance.now();
      await findPayments({ db, connection, now: new Date(), identity: IDENTITY });
      for (const reference of [...waiting]) {
        const [row] = await db
          .select({ status: paymentReferences.status })
          .from(paymentReferences)
          .where(eq(paymentReferences.reference, reference));
        if (row && row.status !== 'pending') {
          foundAfterMs.push(performance.now() - landedAt.get(reference)!);
          waiting.delete(reference);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, RUN_EVERY_MS - (performance.now() - tick))));
    }

    const runMs = runs.map((r) => r.ms);
    console.log(
      `\n## payments: finding pass (${OPEN + PAID} open references, ${REFERENCES_PER_RUN} per run, a run every ${RUN_EVERY_MS} ms)`,
    );
    console.log(
      `- RPC calls per run with nothing paid: ${Math.max(...runs.map((r) => r.rpcCalls))} (references looked up per run: ${Math.max(...runs.map((r) => r.checked))})`,
    );
    console.log(`- one run: p50 ${percentile(runMs, 50).toFixed(0)} ms, p95 ${percentile(runMs, 95).toFixed(0)} ms`);
    console.log(
      `- payment landed → receipt confirmed, ${foundAfterMs.length} of ${PAID} paid references already looked up once: ` +
        `p50 ${(percentile(foundAfterMs, 50) / 1000).toFixed(1)} s, p95 ${(percentile(foundAfterMs, 95) / 1000).toFixed(1)} s` +
        (waiting.size ? ` (${waiting.size} not found within 5 minutes)` : ''),
    );
    console.log('- (a shared machine, other agents running: figures are indicative)');
  } finally {
    await close();
  }
}
