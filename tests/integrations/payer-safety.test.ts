// Paying the right person (README "Look-alike tags", "Signals for payers", "Warnings for payers",
// "Reverse lookup: why a 404", "Freshness: X-Indexed-Slot"), against the built app, the shared
// localnet and PostgreSQL.
import { randomBytes } from 'node:crypto';
import type { KeyPairSigner, Signature } from '@solana/kit';
import bs58 from 'bs58';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity, recordAddressOf } from '@/devstack/identities';
import { escapeHtml } from '@/lib/web/server/html';
import { profileViewHtml } from '@/lib/web/server/profile-view';
import { identities, indexerRuns } from '@/lib/db/schema';
import { recordDeferrals } from '@/lib/features/indexer/deferrals';
import { MIRROR_CURRENT_WITHIN_MS } from '@/lib/features/integrations/reverse-reasons';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { getIdentity as readIdentity } from '@/lib/features/identity/get-identity';
import { moderate } from '@/lib/features/identity/moderation';
import { getSignalsAtSlot } from '@/lib/features/identity/signals';
import { reverseLookup } from '@/lib/features/integrations/reverse-lookup';
import { payActionMetadata } from '@/lib/features/payments/pay-action';
import { admin } from '../support/admin-cli';
import { ownDatabase, stackDatabase } from '../support/database';
import { clientHeaders, readResponse, postAuthed } from '../support/http';
import { IDENTITY_FIELDS } from '../support/identity';
import { signIn } from '../support/sign-in';
import { findTagRecordPda, getSetWalletInstruction } from '@/packages/tag-registry/src';
import { fundedSigner, newSigner, PROGRAM_ADDRESS, reachAll, registration, rpcAt, sendSigned } from '../support/chain';
import { runCron } from '../indexer/support';

const appUrl = inject('appUrl');
const rpc = rpcAt(inject('rpcUrl'));
const database = stackDatabase({ poolSize: 2 });

const HOUR = 3_600_000;
const WINDOW = 72 * HOUR;
const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };

/** Letters no skeleton rule touches: a suffix that keeps each test's tags apart from every other's. */
function plainLetters(n = 10): string {
  const letters = 'aeghkptxyz';
  return [...randomBytes(n)].map((b) => letters[b % letters.length]).join('');
}

const get = async (path: string, headers: Record<string, string> = {}) =>
  readResponse(await fetch(`${appUrl}${path}`, { headers }));
const sync = (signature: string) => postAuthed(`${appUrl}/v1/sync`, null, { signature });
const slotOf = (res: { headers: Headers }) => Number(res.headers.get('x-indexed-slot'));

async function landed(signature: Promise<string>): Promise<string> {
  const sig = await signature;
  await reachAll(rpc, [sig], 'finalized');
  return sig;
}

/** A register_tag sent straight to the cluster (not through the API), the owner its payout wallet; not waited for. */
const registerDirect = async (owner: KeyPairSigner, tag: string) =>
  sendSigned(rpc, [await registration(owner, tag)], owner);

/** The finalized transaction of `signature`, as the cluster answers it. */
const finalizedTransaction = async (signature: string) =>
  (await rpc
    .getTransaction(signature as Signature, {
      commitment: 'finalized',
      maxSupportedTransactionVersion: 0,
      encoding: 'json',
    })
    .send())!;

describe('look-alikes at registration', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await signIn(appUrl));
  });
  const register = (tag: string) => postAuthed(`${appUrl}/v1/register`, token, { tag });

  it('a look-alike of a verified tag: 409 lookalike naming it; availability says so before anything is signed', async () => {
    const suffix = plainLetters();
    await moderate(database.db, (await insertIdentity(database.db, { tag: `shop${suffix}` })).tag, 'verify');
    const res = await register(`5hop${suffix}`);
    expect([res.status, res.json]).toEqual([
      409,
      {
        error: {
          code: 'lookalike',
          message: `@5hop${suffix} looks like @shop${suffix} (verified): a tag that looks like a verified or merchant tag cannot be registered.`,
          tag: `@shop${suffix}`,
        },
      },
    ]);
    const availability = await get(`/v1/availability/5hop${suffix}`);
    expect([availability.status, availability.json]).toEqual([
      200,
      {
        tag: `5hop${suffix}`,
        available: false,
        reason: 'lookalike',
        lookalikes: [{ tag: `@shop${suffix}`, verified: true, merchant: false }],
        warning: `@5hop${suffix} looks like @shop${suffix} (verified). Tags that look like a verified or merchant tag cannot be registered.`,
      },
    ]);
  });

  it('a look-alike of a merchant tag is refused the same way', async () => {
    const suffix = plainLetters();
    await moderate(database.db, (await insertIdentity(database.db, { tag: `market${suffix}` })).tag, 'merchant');
    const res = await register(`rnarket${suffix}`);
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'lookalike', tag: `@market${suffix}` });
  });

  it('a look-alike of an unverified tag: 200, and availability warns, naming it', async () => {
    const suffix = plainLetters();
    await insertIdentity(database.db, { tag: `bob${suffix}` });
    const res = await register(`b0b${suffix}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['lastValidBlockHeight', 'pda', 'transaction']);
    const availability = await get(`/v1/availability/b_0b${suffix}`);
    expect(availability.json).toEqual({
      tag: `b_0b${suffix}`,
      available: true,
      reason: null,
      lookalikes: [{ tag: `@bob${suffix}`, verified: false, merchant: false }],
      warning: `@b_0b${suffix} looks like @bob${suffix}. Payers may confuse them; consider a more distinct tag.`,
    });
  });

  it('a tag that looks like nothing has no look-alikes and no warning', async () => {
    const tag = `plain${plainLetters()}`;
    expect((await get(`/v1/availability/${tag}`)).json).toEqual({
      tag,
      available: true,
      reason: null,
      lookalikes: [],
      warning: null,
    });
  });
});

describe('a look-alike landed on chain anyway', () => {
  let alice: KeyPairSigner;
  let mallory: KeyPairSigner;
  beforeAll(async () => {
    [alice, mallory] = await Promise.all([fundedSigner(rpc), fundedSigner(rpc)]);
  });

  it('is mirrored as blocked (reads 404), and the admin command clears the block', async () => {
    const suffix = plainLetters();
    const original = `vvallet${suffix}`;
    expect((await sync(await landed(registerDirect(alice, original)))).status).toBe(200);
    await moderate(database.db, original, 'verify');

    const imitation = `wa1let${suffix}`;
    const res = await sync(await landed(registerDirect(mallory, imitation)));
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
    const [row] = await database.db.select().from(identities).where(eq(identities.tag, imitation));
    expect(row).toMatchObject({ status: 'blocked', owner: mallory.address });
    expect((await get(`/v1/identity/${imitation}`)).status).toBe(404);

    const run = await admin('unblock', imitation);
    expect(run.code, run.stderr).toBe(0);
    const after = await get(`/v1/identity/${imitation}`);
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ tag: `@${imitation}`, owner: mallory.address });
    // Its signals name the verified tag it looks like, and so does its warning.
    const signals = await get(`/v1/identity/${imitation}/signals`);
    expect(signals.json).toMatchObject({ lookalikes: [`@${original}`], warnings: [{ code: 'lookalike' }] });
  });

  it('a look-alike of a tag that is neither verified nor merchant is mirrored active', async () => {
    const suffix = plainLetters();
    expect((await sync(await landed(registerDirect(alice, `cat${suffix}`)))).status).toBe(200);
    const res = await sync(await landed(registerDirect(mallory, `c_at${suffix}`)));
    expect(res.status).toBe(200);
  });
});

describe('signals and warnings after set_wallet', () => {
  let owner: KeyPairSigner;
  beforeAll(async () => {
    owner = await fundedSigner(rpc);
  });

  it('walletSince moves to the block time of set_wallet; /@tag and the Action warn, and stop once the window has passed', async () => {
    const tag = `pay${plainLetters()}`;
    const registered = await landed(registerDirect(owner, tag));
    expect((await sync(registered)).status).toBe(200);

    const before = await get(`/v1/identity/${tag}/signals`);
    expect(before.status).toBe(200);
    const registeredAt = new Date(Number((await finalizedTransaction(registered)).blockTime!) * 1000).toISOString();
    expect(before.json).toEqual({
      tag: `@${tag}`,
      registeredAt,
      ownerSince: registeredAt,
      walletSince: registeredAt,
      verified: false,
      merchant: false,
      lookalikes: [],
      warnings: [],
    });
    expect(before.headers.get('etag')).toMatch(/^".+"$/);
    expect(before.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=60');
    expect((await get(`/v1/identity/${tag}/signals`, { 'if-none-match': before.headers.get('etag')! })).status).toBe(
      304,
    );

    // The page before the change: no warning.
    expect(await profileHtml(tag)).not.toContain('data-testid="payer-warnings"');

    await new Promise((r) => setTimeout(r, 1100)); // a block time later than the registration's (whole seconds)
    const { signer: wallet } = await newSigner();
    const [tagRecord] = await findTagRecordPda({ tag }, { programAddress: PROGRAM_ADDRESS });
    const setWallet = getSetWalletInstruction(
      { tagRecord, owner, wallet, walletArg: wallet.address },
      { programAddress: PROGRAM_ADDRESS },
    );
    const changed = await landed(sendSigned(rpc, [setWallet], owner));
    expect((await sync(changed)).status).toBe(200);
    const changedAt = new Date(Number((await finalizedTransaction(changed)).blockTime!) * 1000);

    const after = await get(`/v1/identity/${tag}/signals`);
    const signals = after.json as {
      walletSince: string;
      ownerSince: string;
      warnings: { code: string; message: string }[];
    };
    expect(signals.walletSince).toBe(changedAt.toISOString());
    expect(Date.parse(signals.walletSince)).toBeGreaterThan(Date.parse(registeredAt));
    expect(signals.ownerSince).toBe(registeredAt);
    expect(signals.warnings.map((w) => w.code)).toEqual(['wallet_changed_recently']);
    // The identity object keeps exactly SPEC 2.1's fields.
    expect(Object.keys((await get(`/v1/identity/${tag}`)).json as object).sort()).toEqual([...IDENTITY_FIELDS].sort());

    const html = await profileHtml(tag);
    expect(html).toContain('data-testid="payer-warnings"');
    expect(html).toContain('data-warning="wallet_changed_recently"');
    const action = await get(`/api/actions/pay/${tag}`);
    expect(action.status).toBe(200);
    expect((action.json as { description: string }).description).toMatch(
      new RegExp(`^Warning: The payout wallet of @${tag} changed on `),
    );

    // The same decisions with the clock moved: just inside the window, then just past it.
    const identity = await readIdentity(database.db, tag);
    const at = async (now: Date) => {
      const { value } = await getSignalsAtSlot(database.db, tag, { now });
      if (!value) throw new Error(`@${tag} reads as missing`);
      const description = payActionMetadata({
        identity,
        asset: { kind: 'sol', symbol: 'SOL', decimals: 9, fallback: false },
        actionPath: '/x',
        icon: '/i',
        warnings: value.warnings,
      }).description;
      const page = (await profileViewHtml(identity, 'localnet', value.warnings)).text;
      return { codes: value.warnings.map((w) => w.code), description, page };
    };
    const inside = await at(new Date(changedAt.getTime() + WINDOW - 1));
    expect(inside.codes).toEqual(['wallet_changed_recently']);
    expect(inside.description.startsWith('Warning: ')).toBe(true);
    expect(inside.page).toContain('data-warning="wallet_changed_recently"');
    const past = await at(new Date(changedAt.getTime() + WINDOW));
    expect(past.codes).toEqual([]);
    expect(past.description.startsWith('Send SOL')).toBe(true);
    expect(past.page).not.toContain('payer-warnings');
  });

  it('signals of a missing, blocked or malformed tag: the identity’s answers', async () => {
    expect((await get(`/v1/identity/zz_${plainLetters()}/signals`)).json).toEqual(NOT_FOUND);
    const blocked = await insertIdentity(database.db, { tag: `blk${plainLetters()}`, status: 'blocked' });
    const res = await get(`/v1/identity/${blocked.tag}/signals`);
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
    expect((await get('/v1/identity/a-b/signals')).status).toBe(400);
  });
});

describe('/@tag warns as its signals do', () => {
  it('a look-alike of a verified tag paying to a PDA: the page shows the signals answer’s warnings, in its order', async () => {
    const suffix = plainLetters();
    await moderate(database.db, (await insertIdentity(database.db, { tag: `shop${suffix}` })).tag, 'verify');
    const tag = `5hop${suffix}`;
    await insertIdentity(database.db, { tag, wallet: recordAddressOf(`pda${suffix}`) }); // a PDA: off the curve
    const signals = await get(`/v1/identity/${tag}/signals`);
    expect(signals.json).toMatchObject({ lookalikes: [`@shop${suffix}`] });
    const { warnings } = signals.json as { warnings: { code: string; message: string }[] };
    expect(warnings.map((w) => w.code)).toEqual(['unsafe_payout', 'lookalike']);

    const html = await profileHtml(tag);
    expect([...html.matchAll(/data-warning="([a-z_]+)"/g)].map((m) => m[1])).toEqual(['unsafe_payout', 'lookalike']);
    for (const warning of warnings) expect(html).toContain(escapeHtml(warning.message));
  });
});

describe('reverse lookup: why a 404', () => {
  // `no_tag` and `primary_not_owned` need a mirror that caught up lately (lib/features/integrations/reverse-reasons.ts).
  beforeAll(() => runCron(appUrl));
  const reverse = (address: string) => get(`/v1/reverse/${address}`);
  const notFound = (reason: string, message: string) => ({ error: { code: 'not_found', message, reason } });

  it('no_tag: the address has nothing', async () => {
    const res = await reverse(newAddress());
    expect([res.status, res.json]).toEqual([404, notFound('no_tag', 'No tag for this address.')]);
  });

  it('blocked: its only tag is blocked', async () => {
    const address = newAddress();
    await insertIdentity(database.db, {
      tag: `rb${plainLetters()}`,
      owner: address,
      wallet: address,
      status: 'blocked',
    });
    const res = await reverse(address);
    expect([res.status, res.json]).toEqual([
      404,
      notFound('blocked', 'No tag for this address: the tags it owns or is the payout wallet of are blocked.'),
    ]);
  });

  it('primary_not_owned: the primary it chose was transferred away', async () => {
    const { token, keypair } = await signIn(appUrl);
    const owner = keypair.publicKey;
    const row = await insertIdentity(database.db, { tag: `rp${plainLetters()}`, owner, wallet: owner });
    const chosen = await readResponse(
      await fetch(`${appUrl}/v1/primary`, {
        method: 'PUT',
        headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
        body: JSON.stringify({ tag: row.tag }),
      }),
    );
    expect(chosen.status).toBe(200);
    const buyer = newAddress();
    await database.db.transaction(async (tx) => {
      await tx.update(identities).set({ owner: buyer, wallet: buyer }).where(eq(identities.tag, row.tag));
      await recordIdentityChanges(tx as never, [row.tag], new Date());
    });
    const res = await reverse(owner);
    expect([res.status, res.json]).toEqual([
      404,
      notFound(
        'primary_not_owned',
        'No tag for this address: the primary tag it chose now belongs to another key or was released.',
      ),
    ]);
  });

  describe('not_indexed: the mirror cannot vouch for the absence yet', () => {
    // A mirror of the test's own, whose indexer state only this test writes.
    const own = ownDatabase({ poolSize: 1 });
    const key = PROGRAM_ADDRESS;
    const caughtUp = (at: Date) =>
      own.db
        .insert(indexerRuns)
        .values({
          programId: key,
          startedAt: at,
          finishedAt: at,
          outcome: 'completed',
          processed: 0,
          deferred: 0,
          recordedSkips: 0,
          durationMs: 1,
          caughtUpSlot: 1n,
          caughtUpAt: at,
        })
        .onConflictDoUpdate({ target: indexerRuns.programId, set: { caughtUpAt: at } });

    it('follows the indexer’s own state, and asks the cluster nothing', async () => {
      const mirror = { db: own.db, programAddress: PROGRAM_ADDRESS };
      const address = newAddress();
      const now = new Date();
      const reason = () => reasonOf(reverseLookup(mirror, address, now));
      // no run has caught up yet
      await expect(reason()).resolves.toBe('not_indexed');
      await caughtUp(new Date(now.getTime() - MIRROR_CURRENT_WITHIN_MS));
      await expect(reason()).resolves.toBe('no_tag');
      // a catch-up older than the bound no longer vouches
      await caughtUp(new Date(now.getTime() - MIRROR_CURRENT_WITHIN_MS - 1));
      await expect(reason()).resolves.toBe('not_indexed');
      await caughtUp(now);
      // a deferred transaction may be this address's registration
      await recordDeferrals(own.db, key, [{ signature: bs58.encode(randomBytes(64)), slot: 1, reason: 'test' }], now);
      await expect(reason()).resolves.toBe('not_indexed');
    });
  });
});

describe('X-Indexed-Slot', () => {
  it('is on every public read, and rises after a sync', async () => {
    const row = await insertIdentity(database.db, { tag: `xs${plainLetters()}` });
    const reads: [string, () => Promise<{ status: number; headers: Headers }>][] = [
      ['identity', () => get(`/v1/identity/${row.tag}`)],
      ['identity 404', () => get(`/v1/identity/zz_${plainLetters()}`)],
      ['resolve', () => get(`/v1/resolve/${row.tag}`)],
      ['signals', () => get(`/v1/identity/${row.tag}/signals`)],
      ['transfer state', () => get(`/v1/identity/${row.tag}/transfer`)],
      ['reverse', () => get(`/v1/reverse/${row.owner}`)],
      ['reverse 404', () => get(`/v1/reverse/${newAddress()}`)],
      ['reverse batch', () => postAuthed(`${appUrl}/v1/reverse`, null, { addresses: [row.owner] })],
      ['resolve batch', () => postAuthed(`${appUrl}/v1/resolve`, null, { tags: [row.tag] })],
      ['availability', () => get(`/v1/availability/${row.tag}`)],
      ['events', () => get('/v1/events?limit=1')],
      ['pay Action', () => get(`/api/actions/pay/${row.tag}`)],
    ];
    for (const [name, read] of reads) {
      const res = await read();
      expect(res.headers.get('x-indexed-slot'), name).toMatch(/^\d+$/);
    }
    const before = slotOf(await get(`/v1/resolve/${row.tag}`));

    const owner = await fundedSigner(rpc);
    const signature = await landed(registerDirect(owner, `xr${plainLetters()}`));
    const slot = Number((await finalizedTransaction(signature)).slot);
    expect((await sync(signature)).status).toBe(200);
    const after = slotOf(await get(`/v1/resolve/${row.tag}`));
    expect(after).toBeGreaterThan(before);
    expect(after).toBeGreaterThanOrEqual(slot);
    expect((await get(`/v1/identity/${row.tag}`)).headers.get('access-control-expose-headers')).toContain(
      'X-Indexed-Slot',
    );
  });
});

function newAddress(): string {
  return bs58.encode(randomBytes(32));
}

async function profileHtml(tag: string): Promise<string> {
  const res = await fetch(`${appUrl}/@${tag}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Why the lookup found no tag (its 404's `reason`), or `found`. */
async function reasonOf(lookup: ReturnType<typeof reverseLookup>): Promise<string> {
  const { value } = await lookup;
  return 'reason' in value ? value.reason : 'found';
}
