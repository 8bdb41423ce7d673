// Indexer catch-up on a large backlog and reconcile over as many records, for the scale bench.
import { lamports, type Address } from '@solana/kit';
import { createKitClient, RPC_TIMEOUT_MS } from '@/lib/chain/rpc';
import { openDb } from '@/lib/db/client';
import { reconcileMirror } from '@/lib/features/indexer/reconcile';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { newNodeSigner, nodeSignedWire } from './node-key';

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
  programAddress: Address,
  prefix: string,
  count: number,
): Promise<void> {
  const { rpc } = createKitClient(rpcUrl, RPC_TIMEOUT_MS);
  const owners = Array.from({ length: OWNERS }, newNodeSigner);
  for (const owner of owners) await rpc.requestAirdrop(owner.address, lamports(1_000_000_000_000n)).send();
  for (let first = 0; first < count; first += SEND_BATCH) {
    const { value: latest } = await again(() => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send());
    const calls = [];
    for (let i = first; i < Math.min(count, first + SEND_BATCH); i++) {
      const owner = owners[i % OWNERS]!;
      const instruction = registerTagInstruction({
        programAddress,
        tag: `${prefix}${i}`,
        owner: owner.address,
        wallet: owner.address,
        feePayer: owner.address,
      });
      const wire = nodeSignedWire([instruction], owner, latest);
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
  programAddress: Address,
  expected: number,
): Promise<CatchUp> {
  const handle = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 10 });
  try {
    const t0 = performance.now();
    const summary = await runIndexer({
      db: handle.db,
      ...kitChain(rpcUrl, programAddress),
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
export async function reconcileOver(databaseUrl: string, rpcUrl: string, programAddress: Address): Promise<Reconciled> {
  const handle = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 10 });
  try {
    const t0 = performance.now();
    const report = await reconcileMirror({
      db: handle.db,
      ...kitChain(rpcUrl, programAddress),
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
function kitChain(rpcUrl: string, programAddress: Address) {
  return { ...createKitClient(rpcUrl, RPC_TIMEOUT_MS), rpcUrl, programAddress };
}
