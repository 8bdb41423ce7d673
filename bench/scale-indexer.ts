// Indexer catch-up on a large backlog and reconcile over as many records, for the scale bench.
import { sign } from 'node:crypto';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction } from '@solana/web3.js';
import { address } from '@solana/kit';
import { createKitClient, RPC_TIMEOUT_MS } from '@/lib/chain/rpc';
import { openDb } from '@/lib/db/client';
import { reconcileMirror } from '@/lib/features/indexer/reconcile';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { nodeKey } from './node-key';

/** Transactions per JSON-RPC batch: each on a fresh blockhash (one lives 150 slots, one slot a transaction here). */
const SEND_BATCH = 100;
const OWNERS = 16;

/**
 * `count` registrations by `OWNERS` owners in turn, sent as JSON-RPC batches (what makes a
 * backlog of tens of thousands quick to build), each checked accepted; finality is immediate
 * on the localnet. Resolves once the last is landed.
 */
export async function registrationBacklog(
  rpcUrl: string,
  programId: PublicKey,
  prefix: string,
  count: number,
): Promise<void> {
  const connection = new Connection(rpcUrl, 'confirmed');
  const owners = Array.from({ length: OWNERS }, () => Keypair.generate());
  for (const owner of owners) await connection.requestAirdrop(owner.publicKey, 1000 * LAMPORTS_PER_SOL);
  const keys = owners.map(nodeKey);
  for (let first = 0; first < count; first += SEND_BATCH) {
    const { blockhash, lastValidBlockHeight } = await again(() => connection.getLatestBlockhash('confirmed'));
    const calls = [];
    for (let i = first; i < Math.min(count, first + SEND_BATCH); i++) {
      const owner = owners[i % OWNERS]!;
      const tx = new Transaction({ feePayer: owner.publicKey, blockhash, lastValidBlockHeight }).add(
        registerTagInstruction({
          programId,
          tag: `${prefix}${i}`,
          owner: owner.publicKey,
          wallet: owner.publicKey,
          feePayer: owner.publicKey,
        }),
      );
      tx.addSignature(owner.publicKey, sign(null, tx.serializeMessage(), keys[i % OWNERS]!));
      const wire = tx.serialize({ verifySignatures: false }).toString('base64');
      calls.push({
        jsonrpc: '2.0',
        id: i,
        method: 'sendTransaction',
        params: [wire, { encoding: 'base64', skipPreflight: true }],
      });
    }
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls),
    });
    const answers = (await res.json()) as { id: number; error?: unknown }[];
    const failed = answers.find((a) => a.error);
    if (!res.ok || answers.length !== calls.length || failed)
      throw new Error(`registration backlog: ${res.status} ${JSON.stringify(failed ?? answers.length)}`);
  }
}

/** A read tried up to three times: one run lost a request to a connection the localnet had just closed. */
async function again<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt === 3) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export interface CatchUp {
  transactions: number;
  seconds: number;
  perSecond: number;
}

/** One runIndexer call from an empty cursor over everything the program has on `rpcUrl`. */
export async function indexerCatchUp(
  databaseUrl: string,
  rpcUrl: string,
  programId: PublicKey,
  expected: number,
): Promise<CatchUp> {
  const handle = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 10 });
  try {
    const t0 = performance.now();
    const summary = await runIndexer({
      db: handle.db,
      ...kitChain(rpcUrl, programId),
      maxTransactions: 1_000_000,
      pageSize: 1000,
      now: new Date(),
    });
    const seconds = (performance.now() - t0) / 1000;
    if (summary.processed !== expected || summary.indexed !== expected)
      throw new Error(`indexer catch-up: processed ${summary.processed}, indexed ${summary.indexed} of ${expected}`);
    return { transactions: summary.processed, seconds, perSecond: summary.processed / seconds };
  } finally {
    await handle.close();
  }
}

export interface Reconciled {
  records: number;
  rows: number;
  seconds: number;
  perSecond: number;
}

/** Reconcile (report only) of a mirror that should equal the chain; throws on any difference. */
export async function reconcileOver(databaseUrl: string, rpcUrl: string, programId: PublicKey): Promise<Reconciled> {
  const handle = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 10 });
  try {
    const t0 = performance.now();
    const report = await reconcileMirror({
      db: handle.db,
      ...kitChain(rpcUrl, programId),
      repair: false,
      now: new Date(),
    });
    const seconds = (performance.now() - t0) / 1000;
    if (report.differences.length)
      throw new Error(
        `reconcile: ${report.differences.length} differences, first ${JSON.stringify(report.differences[0])}`,
      );
    return { records: report.records, rows: report.rows, seconds, perSecond: report.records / seconds };
  } finally {
    await handle.close();
  }
}

/** The program at `rpcUrl` as the indexer takes it (lib/chain/chain-and-mirror.ts). */
function kitChain(rpcUrl: string, programId: PublicKey) {
  return { ...createKitClient(rpcUrl, RPC_TIMEOUT_MS), rpcUrl, programAddress: address(programId.toBase58()) };
}
