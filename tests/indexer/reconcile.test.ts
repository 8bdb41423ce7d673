import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KeyPairSigner } from '@solana/kit';
import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { identities, identityEvents } from '@/lib/db/schema';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { reconcileMirror } from '@/lib/features/indexer/reconcile';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { fundedSigner, kitChainAt, recordAddress, registerMany } from '../support/chain';

/*
 * Reconcile (DESIGN "Indexer"): the mirror against getProgramAccounts. It finds a
 * deleted row, a tampered owner and a row with no record; `--repair` fixes all three. A
 * localnet and a database of their own, so the chain holds exactly this test's records.
 */

/** `npm run indexer -- <args>` against the test's database and localnet: exit code and output. */
function indexerCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'scripts/indexer.ts', ...args],
      {
        env: { ...process.env, ...env, NODE_ENV: 'development' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('reconcile', () => {
  const localnet = ownLocalnet();
  const database = ownDatabase();
  let dataDir: string;
  let tags: string[];
  let owner: KeyPairSigner;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'reconcile-'));
    const chain = kitChainAt(localnet.url);
    owner = await fundedSigner(chain.rpc, 10);
    tags = (await registerMany(chain.rpc, owner, 3, 'rc')).map((s) => s.tag);
    await runIndexer({
      db: database.db,
      ...chain,
      maxTransactions: 100,
      pageSize: 100,
      now: new Date(),
    });
  });
  afterAll(async () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds a deleted row, a tampered owner and a row with no record; --repair fixes all three', async () => {
    const chain = kitChainAt(localnet.url);
    const db = database.db;
    const [deleted, tampered, kept] = tags as [string, string, string];
    expect((await reconcileMirror({ db, ...chain, repair: false, now: new Date() })).differences).toEqual([]);

    await db.delete(identityEvents); // the registrations' own events; only the repair's are checked below
    const intruder = bs58.encode(randomBytes(32));
    await db.delete(identities).where(eq(identities.tag, deleted));
    await db
      .update(identities)
      .set({ owner: intruder, displayName: 'Not the owner' })
      .where(eq(identities.tag, tampered));
    const orphan = await insertIdentity(db, { tag: 'rc_no_record' });

    const report = await reconcileMirror({ db, ...chain, repair: false, now: new Date() });
    expect(report).toMatchObject({ records: 3, rows: 3, repaired: null });
    expect(report.differences).toEqual([
      {
        kind: 'missing-row',
        tag: deleted,
        address: await recordAddress(deleted),
        chain: {
          owner: owner.address,
          wallet: owner.address,
          pendingOwner: null,
          createdAt: expect.any(String),
        },
      },
      {
        kind: 'mismatch',
        tag: tampered,
        address: await recordAddress(tampered),
        fields: [{ field: 'owner', mirror: intruder, chain: owner.address }],
      },
      {
        kind: 'row-without-record',
        tag: orphan.tag,
        address: await recordAddress(orphan.tag),
        mirror: expect.objectContaining({ owner: orphan.owner }),
      },
    ]);

    // The command prints each difference and exits 1 while differences remain.
    const env = {
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: localnet.url,
      DATA_DIR: dataDir,
      APP_URL: 'http://127.0.0.1:9',
    };
    const check = await indexerCli(['reconcile'], env);
    expect(check.out).toContain('3 record(s) on chain, 3 row(s) in the mirror, 3 difference(s)');
    expect(check.out).toContain(`@${deleted}: on chain`);
    expect(check.out).toContain(`@${tampered}: owner is ${intruder} in the mirror, ${owner.address} on chain`);
    expect(check.out).toContain(`@${orphan.tag}: a row in the mirror`);
    expect(check.code).toBe(1);

    const repair = await indexerCli(['reconcile', '--repair'], env);
    expect(repair.out).toContain('repaired: 1 row(s) created, 1 updated, 1 removed');
    expect(repair.code).toBe(0);

    const after = await reconcileMirror({ db, ...chain, repair: false, now: new Date() });
    expect(after.differences).toEqual([]);
    const rows = new Map((await db.select().from(identities)).map((r) => [r.tag, r]));
    expect([...rows.keys()].sort()).toEqual([deleted, tampered, kept].sort());
    expect(rows.get(tampered)).toMatchObject({ owner: owner.address, displayName: null }); // the profile went with the wrong owner
    const landed = await chain.rpc
      .getSignaturesForAddress(await recordAddress(deleted), { limit: 1, commitment: 'finalized' })
      .send();
    expect(rows.get(deleted)).toMatchObject({
      owner: owner.address,
      signature: landed[0]!.signature,
      slot: landed[0]!.slot,
    });

    // Each repaired tag is an event of the change feed; the untouched one is not.
    const events = await db
      .select({ tag: identityEvents.tag, type: identityEvents.type })
      .from(identityEvents)
      .where(inArray(identityEvents.tag, [deleted, tampered, kept, orphan.tag]));
    expect(events.sort((a, b) => a.tag.localeCompare(b.tag))).toEqual(
      [
        { tag: deleted, type: 'upsert' },
        { tag: tampered, type: 'upsert' },
        { tag: orphan.tag, type: 'remove' },
      ].sort((a, b) => a.tag.localeCompare(b.tag)),
    );

    // Nothing left to do: --repair changes nothing and writes no event.
    const again = await indexerCli(['reconcile', '--repair'], env);
    expect(again.out).toContain('0 difference(s)');
    expect(again.code).toBe(0);
    expect(
      await db
        .select()
        .from(identityEvents)
        .where(inArray(identityEvents.tag, [deleted, tampered, kept, orphan.tag])),
    ).toHaveLength(3);
  });
});
