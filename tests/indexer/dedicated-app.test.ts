import type { KeyPairSigner } from '@solana/kit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identities } from '@/lib/db/schema';
import { startApp, type RunningApp } from '@/devstack/app';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { fundedSigner, reachAll, registerMany, registration, rpcAt, sendSigned } from '../support/chain';
import { getIdentity, postAuthed } from '../support/http';
import { cron } from './support';
import { liftedRateLimits } from '@/devstack/rate-limits';

/*
 * An app of its own: a localnet where a transaction stays `confirmed` for FINALITY_MS before
 * it is `finalized`, a database of its own, and a small INDEXER_PAGE_SIZE so that one cron
 * call has to page through many getSignaturesForAddress answers.
 */

// Long enough that the cron call right after confirmation still runs before finality, on a busy machine.
const FINALITY_MS = 8000;

describe('indexer on a dedicated app (finality delay, small pages)', () => {
  const localnet = ownLocalnet({ finalityDelayMs: FINALITY_MS });
  const database = ownDatabase();
  let app: RunningApp;
  let owner: KeyPairSigner;

  beforeAll(async () => {
    app = await startApp({
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: localnet.url,
      INDEXER_PAGE_SIZE: '20',
      RATE_LIMITS: liftedRateLimits(['sync', 'auth']),
    });
    owner = await fundedSigner(rpcAt(localnet.url), 100);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sync: 202 while only confirmed, then 200 once finalized', async () => {
    const rpc = rpcAt(localnet.url);
    const signature = await sendSigned(rpc, [await registration(owner, 'pending_one')], owner);
    await reachAll(rpc, [signature], 'confirmed');
    const early = await postAuthed(`${app.url}/v1/sync`, null, { signature });
    expect(early.status).toBe(202);
    expect(early.json).toEqual({ status: 'pending' });
    expect(early.headers.get('retry-after')).toBe('1');
    // The cron run reads at `finalized` too: nothing yet.
    const run = await cron(app.url).then((r) => r.json());
    expect(run.indexed).toBe(0);
    expect((await getIdentity(app.url, 'pending_one')).status).toBe(404);

    await reachAll(rpc, [signature], 'finalized');
    const late = await postAuthed(`${app.url}/v1/sync`, null, { signature });
    expect(late.status).toBe(200);
    expect(late.json).toMatchObject({ tag: '@pending_one', owner: owner.address });
  });

  it('250 registrations land and a single cron call indexes them all across pages', async () => {
    const sent = await registerMany(rpcAt(localnet.url), owner, 250, 'bulk_');
    const res = await cron(app.url);
    expect(res.status).toBe(200);
    const summary = await res.json();
    // The sync above already mirrored `pending_one`: it is passed over, not duplicated.
    expect(summary).toMatchObject({ status: 'completed', indexed: 250, deferred: [], more: false });
    expect(summary.processed).toBe(251);
    expect(summary.cursor).toBe(sent[sent.length - 1]!.signature);
    const [row] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(identities)
      .where(sql`${identities.tag} like 'bulk\\_%'`);
    expect(row!.n).toBe(250);
    for (const { tag } of [sent[0]!, sent[137]!, sent[249]!])
      expect((await getIdentity(app.url, tag)).status).toBe(200);
  });
});
