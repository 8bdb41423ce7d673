import { Keypair, SystemProgram } from '@solana/web3.js';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db/client';
import { identities } from '@/lib/db/schema';
import { readCursor } from '@/lib/features/indexer/cursor';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { PROGRAM_ID, allReach, connect, fund, registerMany, sendInstructions } from '../support/chain';
import { kitChainAt } from '../support/kit-chain';

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
  let owner: Keypair;
  const base = { maxTransactions: 10_000, pageSize: 7, now: new Date() };

  beforeAll(async () => {
    owner = Keypair.generate();
    await fund(connect(localnet.url), owner.publicKey, 100);
  });

  it('indexes a backlog oldest first across pages, skips failed transactions, and moves the cursor', async () => {
    const connection = connect(localnet.url);
    const chain = kitChainAt(localnet.url);
    const sent = await registerMany(connection, owner, 20, 'bk');
    // A failed register (the payer cannot afford the transfer after it) and a transfer-only
    // transaction that mentions nobody's program: neither creates anything.
    const poor = Keypair.generate();
    await fund(connection, poor.publicKey, 1);
    const failed = await sendInstructions(
      connection,
      [
        registerTagInstruction({
          programId: PROGRAM_ID,
          tag: 'bkfailed',
          owner: poor.publicKey,
          wallet: poor.publicKey,
          feePayer: poor.publicKey,
        }),
        SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: owner.publicKey, lamports: 5e9 }),
      ],
      [poor],
      { skipPreflight: true },
    );
    await allReach(connection, [failed], 'finalized');

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
    const landed = await connection.getTransaction(sent[0]!.signature, {
      commitment: 'finalized',
      maxSupportedTransactionVersion: 0,
    });
    expect(first).toMatchObject({
      owner: owner.publicKey.toBase58(),
      wallet: owner.publicKey.toBase58(),
      status: 'active',
      signature: sent[0]!.signature,
      slot: BigInt(landed!.slot),
      createdAt: new Date(landed!.blockTime! * 1000),
    });
    expect((await readCursor(database.db, PROGRAM_ID.toBase58())).signature).toBe(failed);

    const again = await runIndexer({ ...base, db: database.db, ...chain });
    expect(again).toMatchObject({ status: 'completed', processed: 0, indexed: 0, cursor: failed });
  });

  it('mirrors a reserved tag that landed anyway as blocked', async () => {
    const connection = connect(localnet.url);
    const chain = kitChainAt(localnet.url);
    const signature = await sendInstructions(
      connection,
      [
        registerTagInstruction({
          programId: PROGRAM_ID,
          tag: 'support',
          owner: owner.publicKey,
          wallet: owner.publicKey,
          feePayer: owner.publicKey,
        }),
      ],
      [owner],
    );
    await allReach(connection, [signature], 'finalized');
    await runIndexer({ ...base, db: database.db, ...chain });
    const [row] = await database.db.select().from(identities).where(eq(identities.tag, 'support'));
    expect(row?.status).toBe('blocked');
  });

  it('two overlapping runs create each identity exactly once (the second is skipped)', async () => {
    const connection = connect(localnet.url);
    const chain = kitChainAt(localnet.url);
    const before = await countIdentities(database.db);
    await registerMany(connection, owner, 30, 'ov');
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
    const connection = connect(localnet.url);
    const chain = kitChainAt(localnet.url);
    const before = await countIdentities(database.db);
    const sent = await registerMany(connection, owner, 40, 'hw');
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
    expect((await readCursor(database.db, PROGRAM_ID.toBase58())).signature).toBe(sent[19]!.signature);

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
    const connection = connect(localnet.url);
    const chain = kitChainAt(localnet.url);
    await registerMany(connection, owner, 12, 'mx');
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
