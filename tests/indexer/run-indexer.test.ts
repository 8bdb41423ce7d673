import { lamports, type KeyPairSigner, type Signature } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db/client';
import { identities } from '@/lib/db/schema';
import { readCursor } from '@/lib/features/indexer/cursor';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import {
  fundedSigner,
  kitChainAt,
  PROGRAM_ADDRESS,
  reachAll,
  registerMany,
  registration,
  sendSigned,
} from '../support/chain';

/*
 * The indexer called directly (no HTTP), each describe with a localnet and a database of its
 * own, so that counts are exact whatever other test files do on the shared ones.
 */

async function countIdentities(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(identities);
  return row!.n;
}

describe('runIndexer', () => {
  const localnet = ownLocalnet();
  const database = ownDatabase();
  let owner: KeyPairSigner;
  const base = { maxTransactions: 10_000, pageSize: 7, now: new Date() };

  beforeAll(async () => {
    owner = await fundedSigner(kitChainAt(localnet.url).rpc, 100);
  });

  it('indexes a backlog oldest first across pages, skips failed transactions, and moves the cursor', async () => {
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    const sent = await registerMany(rpc, owner, 20, 'bk');
    // A failed register (the payer cannot afford the transfer after it) and a transfer-only
    // transaction that mentions nobody's program: neither creates anything.
    const poor = await fundedSigner(rpc, 1);
    const failed = await sendSigned(
      rpc,
      [
        await registration(poor, 'bkfailed'),
        getTransferSolInstruction({ source: poor, destination: owner.address, amount: lamports(5_000_000_000n) }),
      ],
      poor,
      { skipPreflight: true },
    );
    await reachAll(rpc, [failed], 'finalized');

    const summary = await runIndexer({ ...base, db: database.db, ...chain });
    expect(summary).toMatchObject({
      status: 'completed',
      processed: 21,
      indexed: 20,
      skipped: 1,
      deferred: [],
      recordedSkips: [],
      cursor: failed,
      more: false,
    });
    expect(await countIdentities(database.db)).toBe(20);
    const [first] = await database.db.select().from(identities).where(eq(identities.tag, sent[0]!.tag));
    const landed = await rpc
      .getTransaction(sent[0]!.signature as Signature, {
        commitment: 'finalized',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(first).toMatchObject({
      owner: owner.address,
      wallet: owner.address,
      status: 'active',
      signature: sent[0]!.signature,
      slot: landed!.slot,
      createdAt: new Date(Number(landed!.blockTime!) * 1000),
    });
    expect((await readCursor(database.db, PROGRAM_ADDRESS)).signature).toBe(failed);

    const again = await runIndexer({ ...base, db: database.db, ...chain });
    expect(again).toMatchObject({ status: 'completed', processed: 0, indexed: 0, cursor: failed });
  });

  it('mirrors a reserved tag that landed anyway as blocked', async () => {
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    const signature = await sendSigned(rpc, [await registration(owner, 'support')], owner);
    await reachAll(rpc, [signature], 'finalized');
    await runIndexer({ ...base, db: database.db, ...chain });
    const [row] = await database.db.select().from(identities).where(eq(identities.tag, 'support'));
    expect(row?.status).toBe('blocked');
  });

  it('two overlapping runs create each identity exactly once (the second is skipped)', async () => {
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    const before = await countIdentities(database.db);
    await registerMany(rpc, owner, 30, 'ov');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const isRunning = new Promise<void>((r) => (started = r));
    const first = runIndexer({
      ...base,
      db: database.db,
      ...chain,
      onTransactionProcessed: async () => {
        started();
        await gate;
      },
    });
    await isRunning;
    // Same pool, and a second pool (another server instance): both find the lock taken.
    const second = await openDb({ driver: 'node-postgres', url: database.url }, { poolSize: 10 });
    try {
      const [a, b] = await Promise.all([
        runIndexer({ ...base, db: database.db, ...chain }),
        runIndexer({ ...base, db: second.db, ...chain }),
      ]);
      expect(a.status).toBe('skipped');
      expect(b.status).toBe('skipped');
    } finally {
      release();
      await second.close();
    }
    expect(await first).toMatchObject({ status: 'completed', processed: 30, indexed: 30 });
    expect(await countIdentities(database.db)).toBe(before + 30);
  });

  it('a run stopped half way, then run again, loses nothing and duplicates nothing', async () => {
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    const before = await countIdentities(database.db);
    const sent = await registerMany(rpc, owner, 40, 'hw');
    let seen = 0;
    await expect(
      runIndexer({
        ...base,
        db: database.db,
        ...chain,
        batchSize: 10,
        onTransactionProcessed: () => {
          seen += 1;
          if (seen === 25) throw new Error('injected failure');
        },
      }),
    ).rejects.toThrow('injected failure');
    // Two batches of ten were committed with their cursor; the third was rolled back.
    expect(await countIdentities(database.db)).toBe(before + 20);
    expect((await readCursor(database.db, PROGRAM_ADDRESS)).signature).toBe(sent[19]!.signature);

    const resumed = await runIndexer({ ...base, db: database.db, ...chain, batchSize: 10 });
    expect(resumed).toMatchObject({ status: 'completed', processed: 20, indexed: 20, skipped: 0, deferred: [] });
    expect(await countIdentities(database.db)).toBe(before + 40);
    const tags = await database.db
      .select({ tag: identities.tag })
      .from(identities)
      .where(sql`${identities.tag} like 'hw%'`);
    expect(tags.map((t) => t.tag).sort()).toEqual(sent.map((s) => s.tag).sort());
  });

  it('stops at maxTransactions and says there is more; the next run finishes', async () => {
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    await registerMany(rpc, owner, 12, 'mx');
    const capped = await runIndexer({ ...base, db: database.db, ...chain, maxTransactions: 5 });
    expect(capped).toMatchObject({ processed: 5, indexed: 5, more: true });
    const rest = await runIndexer({ ...base, db: database.db, ...chain, maxTransactions: 5 });
    expect(rest).toMatchObject({ processed: 5, indexed: 5, more: true });
    const last = await runIndexer({ ...base, db: database.db, ...chain, maxTransactions: 5 });
    expect(last).toMatchObject({ processed: 2, indexed: 2, more: false });
  });

  it('ends with 503 when the cluster is unreachable', async () => {
    const dead = kitChainAt('http://127.0.0.1:9', 2000);
    await expect(runIndexer({ ...base, db: database.db, ...dead })).rejects.toMatchObject({
      code: 'service_unavailable',
      headers: { 'Retry-After': '5' },
    });
  });
});
