import { generateKeyPairSigner, type Address, type Base58EncodedBytes, type KeyPairSigner } from '@solana/kit';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db/client';
import { identities, type IdentityRow } from '@/lib/db/schema';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { syncTransaction } from '@/lib/features/indexer/sync-signature';
import { reconcileMirror } from '@/lib/features/indexer/reconcile';
import { parseTagRecord, TAG_RECORD_DISCRIMINATOR, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { isResting } from '@/lib/chain/record-states';
import bs58 from 'bs58';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { prng } from './support';
import { latestBlockhash, sendCall, type LifecycleCall } from './calls';
import { airdrop, kitChainAt, PROGRAM_ADDRESS } from '../support/chain';

/*
 * Mirror equals chain under disorder: hundreds of random lifecycle calls across a
 * few tags and keys (register, set_wallet, offer, cancel, accept, release, re-register, and
 * calls the program refuses), with /v1/sync's code (syncTransaction) called for random
 * subsets of the landed transactions in shuffled order and cron runs (runIndexer) in between.
 * Around every indexing step the test writes a profile, flags and sometimes a block into the
 * mirror, then checks that the step cleared the profile exactly where the owner changed (or
 * the tag was registered anew), kept a blocked tag blocked, and left every row it changed
 * equal to the chain. At the end every row must match getProgramAccounts, and replaying
 * every sync late changes nothing. A localnet and a database of its own: the run depends on
 * the seed alone. LIFECYCLE_SEED=<n> replays a run; LIFECYCLE_OPERATIONS=<n> sets its length.
 */

const SEED = Number(process.env.LIFECYCLE_SEED ?? 20261123);
const OPERATIONS = Number(process.env.LIFECYCLE_OPERATIONS ?? 240);
const KEYS = 4;
const TAGS = ['prop_alpha', 'prop_beta', 'prop_gamma'];

interface ChainState {
  owner: number;
  wallet: Address;
  pending: number | null;
}

describe('mirror equals chain under disorder (property test)', () => {
  const localnet = ownLocalnet();
  const database = ownDatabase();
  let keys: KeyPairSigner[];
  /** Fresh payout wallets, drawn in turn (a key pair is made asynchronously, the calls are chosen synchronously). */
  let fresh: KeyPairSigner[];

  beforeAll(async () => {
    console.log(`lifecycle property test: seed ${SEED}, ${OPERATIONS} operations (replay: LIFECYCLE_SEED=${SEED})`);
    keys = await Promise.all(Array.from({ length: KEYS }, () => generateKeyPairSigner()));
    fresh = await Promise.all(Array.from({ length: 2 * OPERATIONS + 10 }, () => generateKeyPairSigner()));
    const { rpc } = kitChainAt(localnet.url);
    for (const key of keys) await airdrop(rpc, key.address, 50);
  });

  it(`seed ${SEED}: every step keeps the profile rule, and the mirror ends equal to the chain`, async () => {
    const rand = prng(SEED);
    const chain = kitChainAt(localnet.url);
    const { rpc } = chain;
    const db = database.db;
    /** What the cron route does: one run over everything the cluster holds. */
    const cronRun = () => runIndexer({ db, ...chain, maxTransactions: 10_000, pageSize: 1000, now: new Date() });
    const model = new Map<string, ChainState | null>(TAGS.map((t) => [t, null]));
    /** Released tags at rest → their previous owner (the localnet's 30 days never pass in this test). */
    const resting = new Map<string, number>();
    const landed: { signature: string; ok: boolean }[] = [];
    let unsynced: { signature: string; ok: boolean }[] = [];
    const seen = { ownerChanges: 0, newIdentities: 0, removals: 0, refused: 0, syncs: 0, cronRuns: 0 };
    let step = 0;

    const index = (what: 'sync' | 'cron', run: () => Promise<void>) => indexingStep(what, run);

    /** Writes markers, runs one indexing step, then checks every row of our tags against the rule. */
    async function indexingStep(what: string, run: () => Promise<void>): Promise<void> {
      step += 1;
      const marker = `m${step}`;
      const before = await rowsOf(db);
      for (const row of before.values()) {
        // Moderation between steps: now and then a tag is blocked, and later unblocked.
        const status =
          row.status === 'blocked'
            ? rand.next() < 0.3
              ? 'active'
              : 'blocked'
            : rand.next() < 0.05
              ? 'blocked'
              : 'active';
        await db
          .update(identities)
          .set({ displayName: marker, bio: marker, verified: true, merchant: true, status })
          .where(eq(identities.tag, row.tag));
        Object.assign(row, { displayName: marker, bio: marker, verified: true, merchant: true, status });
      }
      await run();
      const after = await rowsOf(db);
      for (const tag of TAGS) {
        const b = before.get(tag);
        const a = after.get(tag);
        const where = `${what} at step ${step} (seed ${SEED}), @${tag}`;
        if (a && b && a.createdAt.getTime() === b.createdAt.getTime() && a.owner === b.owner) {
          expect(
            { displayName: a.displayName, verified: a.verified, merchant: a.merchant, status: a.status },
            where,
          ).toEqual({
            displayName: marker,
            verified: true,
            merchant: true,
            status: b.status,
          });
        } else if (a) {
          const sameIdentity = b !== undefined && a.createdAt.getTime() === b.createdAt.getTime();
          if (sameIdentity) seen.ownerChanges += 1;
          else seen.newIdentities += 1;
          expect(
            { displayName: a.displayName, bio: a.bio, verified: a.verified, merchant: a.merchant, status: a.status },
            where,
          ).toEqual({
            displayName: null,
            bio: null,
            verified: false,
            merchant: false,
            status: sameIdentity ? b!.status : 'active',
          });
        } else if (b) {
          seen.removals += 1;
        }
        // A row the step wrote (or deleted) is what the chain holds now: reads are of the current state.
        const changed =
          !a !== !b || (a && b && (a.owner !== b.owner || a.wallet !== b.wallet || a.pendingOwner !== b.pendingOwner));
        if (changed) expect(mirrored(a) ?? null, where).toEqual(expected(model.get(tag) ?? null));
      }
    }

    const expected = (state: ChainState | null) =>
      state && {
        owner: keys[state.owner]!.address,
        wallet: state.wallet,
        pendingOwner: state.pending === null ? null : keys[state.pending]!.address,
      };
    const mirrored = (row: IdentityRow | undefined) =>
      row && { owner: row.owner, wallet: row.wallet, pendingOwner: row.pendingOwner };

    async function sync(entry: { signature: string; ok: boolean }): Promise<void> {
      seen.syncs += 1;
      try {
        const result = await syncTransaction({
          db,
          ...chain,
          signature: entry.signature,
          now: new Date(),
        });
        expect(entry.ok, `sync of a refused call answered ${result.status}`).toBe(true);
        expect(result.status).toBe('indexed');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // Refused on chain: 422. Released or blocked: the identity's 404.
        expect(err.code, `sync ${entry.signature}: ${err.message}`).toBe(entry.ok ? 'not_found' : 'unprocessable');
      }
    }

    for (let i = 0; i < OPERATIONS; i++) {
      const { call, valid } = chooseCall(rand, model, resting, keys, () => fresh.pop()!);
      const signature = await sendCall(rpc, call, await latestBlockhash(rpc));
      const status = (await rpc.getSignatureStatuses([signature]).send()).value[0];
      expect(
        status?.err === null,
        `${call.kind} of @${call.tag} (op ${i}, seed ${SEED}): ${JSON.stringify(status?.err, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
      ).toBe(valid);
      if (valid) apply(model, resting, call, keys);
      else seen.refused += 1;
      const entry = { signature, ok: valid };
      landed.push(entry);
      unsynced.push(entry);

      const roll = rand.next();
      if (roll < 0.25 && unsynced.length > 0) {
        const batch = rand.shuffle([...unsynced]).slice(0, 1 + rand.int(unsynced.length));
        unsynced = unsynced.filter((e) => !batch.includes(e));
        await index('sync', async () => {
          for (const entry of batch) await sync(entry);
        });
      } else if (roll < 0.35) {
        seen.cronRuns += 1;
        await index('cron', async () => {
          const summary = await cronRun();
          expect(summary).toMatchObject({ status: 'completed', deferred: [], more: false });
        });
      }
    }

    // Catch up: a cron run, then the syncs never made, in shuffled order.
    await index('cron', async () => {
      await cronRun();
    });
    for (const entry of rand.shuffle(unsynced)) await sync(entry);
    await expectMirrorEqualsChain();

    // Late and out of order: replaying every sync changes nothing.
    const settled = await rowsOf(db);
    for (const entry of rand.shuffle([...landed])) await sync(entry);
    expect(await rowsOf(db)).toEqual(settled);
    await expectMirrorEqualsChain();

    const report = await reconcileMirror({ db, ...chain, repair: false, now: new Date() });
    expect(report.differences).toEqual([]);
    console.log(`lifecycle property test (seed ${SEED}):`, { operations: OPERATIONS, indexingSteps: step, ...seen });
    // The run exercised what it claims to.
    expect(seen.ownerChanges).toBeGreaterThan(0);
    expect(seen.newIdentities).toBeGreaterThan(0);
    expect(seen.removals).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);

    async function expectMirrorEqualsChain(): Promise<void> {
      const accounts = await rpc
        .getProgramAccounts(PROGRAM_ADDRESS, {
          commitment: 'finalized',
          encoding: 'base64',
          filters: [
            { dataSize: BigInt(TAG_RECORD_SIZE) },
            {
              memcmp: {
                offset: 0n,
                bytes: bs58.encode(TAG_RECORD_DISCRIMINATOR) as Base58EncodedBytes,
                encoding: 'base58',
              },
            },
          ],
        })
        .send();
      // A resting record (a released tag) is no identity: the mirror has no row for it.
      const live = accounts.flatMap(({ pubkey, account }) => {
        const record = parseTagRecord(Buffer.from(account.data[0], 'base64'))!;
        return isResting(record) ? [] : [{ pubkey, record }];
      });
      const onChain = new Map(
        live.map(({ pubkey, record }) => {
          return [
            record.tag,
            {
              pda: pubkey,
              owner: record.owner,
              wallet: record.wallet,
              pendingOwner: record.pendingOwner,
            },
          ];
        }),
      );
      const rows = await rowsOf(db);
      const inMirror = new Map(
        [...rows].map(([tag, r]) => [
          tag,
          { pda: r.pda, owner: r.owner, wallet: r.wallet, pendingOwner: r.pendingOwner },
        ]),
      );
      expect(inMirror).toEqual(onChain);
      for (const tag of TAGS)
        expect(mirrored(rows.get(tag)) ?? null, `@${tag} vs the model`).toEqual(expected(model.get(tag) ?? null));
    }
  }, 300_000);
});

async function rowsOf(db: Db): Promise<Map<string, IdentityRow>> {
  const rows = await db.select().from(identities).where(inArray(identities.tag, TAGS));
  return new Map(rows.map((r) => [r.tag, r]));
}

/**
 * A random call given what the chain holds: mostly one the program accepts, about one in
 * eight one it refuses (a stranger signing, no offer to cancel or accept, an offer to the
 * owner, a second registration).
 */
function chooseCall(
  rand: ReturnType<typeof prng>,
  model: Map<string, ChainState | null>,
  resting: Map<string, number>,
  keys: KeyPairSigner[],
  newWallet: () => KeyPairSigner,
): { call: LifecycleCall; valid: boolean } {
  const tag = rand.pick(TAGS);
  const state = model.get(tag) ?? null;
  const someone = () => rand.int(keys.length);
  const other = (than: number) => (than + 1 + rand.int(keys.length - 1)) % keys.length;
  // A payout wallet other than the owner signs too (instructionOf's cosigners).
  const wallet = () => (rand.next() < 0.5 ? keys[someone()]! : newWallet());
  if (!state) {
    // A released tag rests: only its previous owner may register it again (TagResting for anyone else).
    const previous = resting.get(tag);
    const owner = previous === undefined || rand.next() < 0.75 ? (previous ?? someone()) : other(previous);
    return {
      call: { kind: 'register', tag, owner: keys[owner]!, wallet: wallet() },
      valid: previous === undefined || owner === previous,
    };
  }
  const owner = keys[state.owner]!;
  if (rand.next() < 0.125) {
    const stranger = keys[other(state.owner)]!;
    const refused: LifecycleCall[] = [
      { kind: 'set_wallet', tag, owner: stranger, wallet: wallet() },
      { kind: 'offer', tag, owner, newOwner: owner.address },
      { kind: 'register', tag, owner: stranger, wallet: wallet() },
      { kind: 'release', tag, owner: stranger, receiver: stranger.address },
    ];
    if (state.pending === null)
      refused.push({ kind: 'cancel', tag, owner }, { kind: 'accept', tag, newOwner: stranger });
    else refused.push({ kind: 'accept', tag, newOwner: keys[[...keys.keys()].find((k) => k !== state.pending)!]! });
    return { call: rand.pick(refused), valid: false };
  }
  const choices: LifecycleCall[] = [
    { kind: 'set_wallet', tag, owner, wallet: wallet() },
    { kind: 'offer', tag, owner, newOwner: keys[other(state.owner)]!.address },
    { kind: 'release', tag, owner, receiver: keys[someone()]!.address },
  ];
  if (state.pending !== null) {
    choices.push({ kind: 'cancel', tag, owner }, { kind: 'accept', tag, newOwner: keys[state.pending]! });
    choices.push({ kind: 'accept', tag, newOwner: keys[state.pending]! }); // transfers happen often enough
  }
  return { call: rand.pick(choices), valid: true };
}

/** The call's effect on the chain, as DESIGN's ABI table states it. */
function apply(
  model: Map<string, ChainState | null>,
  resting: Map<string, number>,
  call: LifecycleCall,
  keys: KeyPairSigner[],
): void {
  const indexOf = (key: Address) => keys.findIndex((k) => k.address === key);
  const state = model.get(call.tag) ?? null;
  switch (call.kind) {
    case 'register':
      model.set(call.tag, { owner: indexOf(call.owner.address), wallet: call.wallet.address, pending: null });
      resting.delete(call.tag);
      return;
    case 'set_wallet':
      state!.wallet = call.wallet.address;
      return;
    case 'offer':
      state!.pending = indexOf(call.newOwner);
      return;
    case 'cancel':
      state!.pending = null;
      return;
    case 'accept':
      model.set(call.tag, { owner: indexOf(call.newOwner.address), wallet: call.newOwner.address, pending: null });
      return;
    case 'release':
      resting.set(call.tag, state!.owner); // the record rests; the mirror row is removed
      model.set(call.tag, null);
      return;
  }
}
