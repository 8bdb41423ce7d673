import { AccountRole, generateKeyPairSigner, lamports, type Signature } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identities, indexerDeferrals, indexerSkips } from '@/lib/db/schema';
import { readCursor } from '@/lib/features/indexer/cursor';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { INDEXER_FETCH_RETRY } from '@/lib/features/indexer/fetch-transactions';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { startLaggingRpc, type LaggingRpc } from './lagging-rpc';
import { fundedSigner, kitChainAt, PROGRAM_ADDRESS, reachAll, registerMany, rpcAt, sendSigned } from '../support/chain';

/*
 * Hardening, an indexer that never moves past what it has not applied: a node
 * that answers getTransaction with null for a signature it has just listed, as load-balanced
 * providers do while one of their nodes lags. The cases share one localnet holding 20
 * registrations (none of them writes to the chain); each has a database and a proxy of its
 * own, so counts are exact.
 */

describe('the indexer in front of a lagging node', () => {
  const localnet = ownLocalnet();
  const database = ownDatabase({ lifetime: 'each' });
  let lagging: LaggingRpc | undefined;
  let sent: { tag: string; signature: string }[];
  const base = { maxTransactions: 10_000, pageSize: 1000 };

  beforeAll(async () => {
    const direct = rpcAt(localnet.url);
    sent = await registerMany(direct, await fundedSigner(direct, 100), 20, 'lag');
  });
  afterEach(async () => {
    await lagging?.close();
    lagging = undefined;
  });

  /** The registrations' signatures in the order they landed (the order the indexer reads). */
  async function landingOrder(): Promise<string[]> {
    const newestFirst = await rpcAt(localnet.url)
      .getSignaturesForAddress(PROGRAM_ADDRESS, { commitment: 'finalized' })
      .send();
    return newestFirst.map((s) => s.signature).reverse();
  }

  async function mirroredTags(): Promise<string[]> {
    const rows = await database.db.select({ tag: identities.tag }).from(identities);
    return rows.map((r) => r.tag).sort();
  }

  it('null to the first getTransaction of every signature: the first run defers and names them, the second mirrors all 20', async () => {
    lagging = await startLaggingRpc(localnet.url, 1);
    const chain = kitChainAt(lagging.url);
    const noRetry = { attempts: 1, firstDelayMs: 0 };

    const first = await runIndexer({ ...base, db: database.db, ...chain, now: new Date(), fetchRetry: noRetry });
    expect(first).toMatchObject({ status: 'completed', processed: 0, indexed: 0, cursor: null, more: true });
    expect(first.deferred.map((d) => d.signature)).toEqual(await landingOrder());
    for (const d of first.deferred)
      expect(d).toMatchObject({ reason: 'the node answered null (not found yet)', attempts: 1 });
    expect(await mirroredTags()).toEqual([]);
    expect((await readCursor(database.db, PROGRAM_ADDRESS)).signature).toBeNull();

    const second = await runIndexer({ ...base, db: database.db, ...chain, now: new Date(), fetchRetry: noRetry });
    expect(second).toMatchObject({
      status: 'completed',
      processed: 20,
      indexed: 20,
      deferred: [],
      more: false,
      cursor: (await landingOrder())[19],
    });
    expect(await mirroredTags()).toEqual(sent.map((s) => s.tag).sort());
    expect(await database.db.select().from(indexerDeferrals)).toEqual([]);
  });

  it('with the default retries, a node that is behind for a moment costs no run: the run asks again after a pause', async () => {
    lagging = await startLaggingRpc(localnet.url, 1);
    const summary = await runIndexer({ ...base, db: database.db, ...kitChainAt(lagging.url), now: new Date() });
    expect(summary).toMatchObject({ processed: 20, indexed: 20, deferred: [], retried: 20 });
    expect(lagging.nullsServed()).toBe(20);
    expect(await mirroredTags()).toEqual(sent.map((s) => s.tag).sort());
  });

  it('a node behind for longer than a run retries: deferred with attempts counted across runs, then applied', async () => {
    // Null for every ask of the first two runs (each asks INDEXER_FETCH_RETRY.attempts times).
    lagging = await startLaggingRpc(localnet.url, 2 * INDEXER_FETCH_RETRY.attempts);
    const chain = kitChainAt(lagging.url);
    const t0 = new Date();
    const first = await runIndexer({
      ...base,
      db: database.db,
      ...chain,
      now: t0,
      fetchRetry: { attempts: INDEXER_FETCH_RETRY.attempts, firstDelayMs: 10 },
    });
    expect(first).toMatchObject({ processed: 0, retried: 40 });
    expect(first.deferred).toHaveLength(20);
    const second = await runIndexer({
      ...base,
      db: database.db,
      ...chain,
      now: new Date(t0.getTime() + 60_000),
      fetchRetry: { attempts: INDEXER_FETCH_RETRY.attempts, firstDelayMs: 10 },
    });
    expect(second.deferred[0]).toMatchObject({
      signature: (await landingOrder())[0],
      attempts: 2,
      since: t0.toISOString(),
    });
    const third = await runIndexer({ ...base, db: database.db, ...chain, now: new Date() });
    expect(third).toMatchObject({ processed: 20, indexed: 20, deferred: [] });
    expect(await mirroredTags()).toEqual(sent.map((s) => s.tag).sort());
    expect(await database.db.select().from(indexerDeferrals)).toEqual([]);
  });

  it('stops the cursor at the first transaction it could not read, keeping what came before', async () => {
    // The first ten are read; from the eleventh on the node lags.
    lagging = await startLaggingRpc(localnet.url, 1);
    const chain = kitChainAt(lagging.url);
    const order = await landingOrder();
    // Spend the first ten's null answers, so only the last ten answer null in the run.
    for (const s of order.slice(0, 10))
      await chain.rpc
        .getTransaction(s as Signature, {
          commitment: 'finalized',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send();
    const first = await runIndexer({
      ...base,
      db: database.db,
      ...chain,
      now: new Date(),
      fetchRetry: { attempts: 1, firstDelayMs: 0 },
    });
    expect(first).toMatchObject({ processed: 10, indexed: 10, cursor: order[9], more: true });
    expect(first.deferred.map((d) => d.signature)).toEqual(order.slice(10));
    const second = await runIndexer({ ...base, db: database.db, ...chain, now: new Date() });
    expect(second).toMatchObject({ processed: 10, indexed: 10, deferred: [], cursor: order[19] });
  });
});

describe('a transaction that will never decode', () => {
  const localnet = ownLocalnet({ lifetime: 'each' });
  const database = ownDatabase({ lifetime: 'each' });

  it('is recorded with its reason, shown in the summary, and passed over once', async () => {
    const chain = kitChainAt(localnet.url);
    const payer = await fundedSigner(chain.rpc, 10);
    // A transfer that lists the program as an extra account: getSignaturesForAddress names
    // it, but it holds no instruction of the program.
    const transfer = getTransferSolInstruction({
      source: payer,
      destination: (await generateKeyPairSigner()).address,
      amount: lamports(1_000_000n),
    });
    const withProgram = {
      ...transfer,
      accounts: [...transfer.accounts, { address: PROGRAM_ADDRESS, role: AccountRole.READONLY }],
    };
    const signature = await sendSigned(chain.rpc, [withProgram], payer);
    await reachAll(chain.rpc, [signature], 'finalized');

    const now = new Date();
    const indexOnce = () => runIndexer({ db: database.db, ...chain, maxTransactions: 100, pageSize: 100, now });
    const summary = await indexOnce();
    expect(summary).toMatchObject({
      processed: 1,
      indexed: 0,
      skipped: 1,
      deferred: [],
      cursor: signature,
      recordedSkips: [{ signature, reason: 'no instruction of the program' }],
    });
    const rows = await database.db.select().from(indexerSkips).where(eq(indexerSkips.signature, signature));
    expect(rows).toEqual([
      {
        signature,
        programId: PROGRAM_ADDRESS,
        slot: expect.any(BigInt),
        reason: 'no instruction of the program',
        recordedAt: now,
      },
    ]);

    const again = await indexOnce();
    expect(again).toMatchObject({ processed: 0, recordedSkips: [] });
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(indexerSkips);
    expect(count!.n).toBe(1);
  });
});
