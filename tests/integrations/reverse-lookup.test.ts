import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identities } from '@/lib/db/schema';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { moderate } from '@/lib/features/identity/moderation';
import { clientHeaders, postJson, readResponse } from '../support/http';
import { signIn } from '../support/sign-in';
import { runCron } from '../indexer/support';
import { appUrl, closeTestDb, get, requireApp, seedIdentity, testDb } from './support';

/*
 * Reverse lookup and the primary tag (DESIGN.md "For integrators"): default the oldest active
 * tag; a chosen primary while its owner still owns it and it is live; else the oldest active
 * tag the address is the payout wallet of; never a blocked or lost tag.
 */

beforeAll(requireApp);
// A 404 says `no_tag` only while the indexer has caught up lately (lib/features/integrations/reverse-reasons.ts).
beforeAll(() => runCron(appUrl));
afterAll(closeTestDb);

const newKey = () => bs58.encode(randomBytes(32));
const at = (day: number) => new Date(Date.UTC(2025, 0, day));

async function putPrimary(tag: unknown, token?: string) {
  const headers = { ...clientHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  return readResponse(await fetch(`${appUrl}/v1/primary`, { method: 'PUT', headers, body: JSON.stringify({ tag }) }));
}

const reverse = (address: string) => get(`/v1/reverse/${address}`);
const reverseBatch = (body: unknown) => postJson(`${appUrl}/v1/reverse`, body);
const NO_TAG = { error: { code: 'not_found', message: 'No tag for this address.', reason: 'no_tag' } };

/** A signed-in owner with three active tags registered on days 3, 1 and 2 (the oldest is the second). */
async function ownerWithThreeTags() {
  const { token, keypair } = await signIn(appUrl);
  const owner = keypair.publicKey;
  const third = await seedIdentity({ owner, wallet: owner, createdAt: at(3) });
  const oldest = await seedIdentity({ owner, wallet: owner, createdAt: at(1) });
  const second = await seedIdentity({ owner, wallet: owner, createdAt: at(2) });
  return { token, owner, oldest, second, third };
}

describe('reverse lookup and the primary tag', () => {
  it('the default is the oldest active tag; after PUT /v1/primary it is the chosen one; { tag: null } goes back', async () => {
    const { token, owner, oldest, third } = await ownerWithThreeTags();

    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });

    const chosen = await putPrimary(third.tag.toUpperCase(), token);
    expect([chosen.status, chosen.json]).toEqual([200, { owner, tag: `@${third.tag}` }]);
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${third.tag}` });

    const back = await putPrimary(null, token);
    expect([back.status, back.json]).toEqual([200, { owner, tag: `@${oldest.tag}` }]);
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });
  });

  it('a chosen tag that is blocked stops counting: the default answers, never the blocked tag; unblocked, it counts again', async () => {
    const { token, owner, oldest, third } = await ownerWithThreeTags();
    expect((await putPrimary(third.tag, token)).status).toBe(200);
    const { db } = await testDb();

    await moderate(db, third.tag, 'block', new Date());
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });
    expect((await reverseBatch({ addresses: [owner] })).json).toEqual({ results: { [owner]: `@${oldest.tag}` } });

    await moderate(db, third.tag, 'unblock', new Date());
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${third.tag}` });
  });

  it('a chosen tag that changed owner (transfer) or was released stops counting at once', async () => {
    const { token, owner, oldest, second, third } = await ownerWithThreeTags();
    const { db } = await testDb();

    expect((await putPrimary(third.tag, token)).status).toBe(200);
    const buyer = newKey();
    await db.update(identities).set({ owner: buyer, wallet: buyer }).where(eq(identities.tag, third.tag));
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });
    expect((await reverse(buyer)).json).toEqual({ address: buyer, tag: `@${third.tag}` });

    expect((await putPrimary(second.tag, token)).status).toBe(200);
    await db.delete(identities).where(eq(identities.tag, second.tag));
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });
  });

  it('a tag transferred away and back (as the indexer mirrors it) does not revive the old choice', async () => {
    const { token, owner, oldest, third } = await ownerWithThreeTags();
    expect((await putPrimary(third.tag, token)).status).toBe(200);
    const { db } = await testDb();
    const setOwner = (to: string) =>
      db.transaction(async (tx) => {
        await tx.update(identities).set({ owner: to, wallet: to }).where(eq(identities.tag, third.tag));
        await recordIdentityChanges(tx, [third.tag], new Date());
      });
    await setOwner(newKey());
    await setOwner(owner);
    expect((await reverse(owner)).json).toEqual({ address: owner, tag: `@${oldest.tag}` });
  });

  it('an address that owns no tag answers the oldest active tag it is the payout wallet of; else 404', async () => {
    const wallet = newKey();
    await seedIdentity({ wallet, createdAt: at(5), status: 'blocked' });
    const paid = await seedIdentity({ wallet, createdAt: at(6) });
    await seedIdentity({ wallet, createdAt: at(7) });
    expect((await reverse(wallet)).json).toEqual({ address: wallet, tag: `@${paid.tag}` });

    const nobody = newKey();
    const res = await reverse(nobody);
    expect([res.status, res.json]).toEqual([404, NO_TAG]);
  });

  it('owning a tag wins over being someone’s payout wallet', async () => {
    const address = newKey();
    await seedIdentity({ owner: newKey(), wallet: address, createdAt: at(1) });
    const own = await seedIdentity({ owner: address, wallet: newKey(), createdAt: at(9) });
    expect((await reverse(address)).json).toEqual({ address, tag: `@${own.tag}` });
  });

  it('batch with 100 addresses, duplicates answered once; 101 is a 400', async () => {
    const owners = Array.from({ length: 60 }, newKey);
    const rows = await Promise.all(owners.map((owner) => seedIdentity({ owner, wallet: owner })));
    const unknown = Array.from({ length: 30 }, newKey);
    const addresses = [...owners, ...unknown, ...owners.slice(0, 10)];
    expect(addresses).toHaveLength(100);

    const res = await reverseBatch({ addresses });
    expect(res.status, res.text).toBe(200);
    const results = (res.json as { results: Record<string, string | null> }).results;
    expect(Object.keys(results)).toEqual([...owners, ...unknown]);
    owners.forEach((owner, i) => expect(results[owner]).toBe(`@${rows[i]!.tag}`));
    for (const address of unknown) expect(results[address]).toBeNull();

    const tooMany = await reverseBatch({ addresses: [...addresses, newKey()] });
    expect([tooMany.status, tooMany.json]).toEqual([
      400,
      { error: { code: 'invalid_request', message: '`addresses`: at most 100 addresses per request' } },
    ]);
  });

  it('a malformed address in a batch is a 400 naming it', async () => {
    const res = await reverseBatch({ addresses: [newKey(), 'not-an-address'] });
    expect([res.status, res.json]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message: '`addresses[1]` "not-an-address": must be a base58 Solana public key',
        },
      },
    ]);
    const single = await reverse('0OIl');
    expect([single.status, single.json]).toEqual([
      400,
      { error: { code: 'invalid_request', message: '`address`: must be a base58 Solana public key' } },
    ]);
  });

  describe('PUT /v1/primary statuses', () => {
    it('401 without a token', async () => {
      const res = await putPrimary('alice');
      expect([res.status, res.json]).toEqual([
        401,
        { error: { code: 'unauthorized', message: 'A valid session token is required.' } },
      ]);
    });

    it('403 for another key’s tag, 404 for a missing or blocked one, 400 for a malformed one', async () => {
      const { token } = await signIn(appUrl);
      const someoneElses = await seedIdentity();
      const blocked = await seedIdentity({ status: 'blocked' });
      const CASES: [body: unknown, status: number, error: { code: string; message: string }][] = [
        [someoneElses.tag, 403, { code: 'forbidden', message: 'This tag belongs to another public key.' }],
        [blocked.tag, 404, { code: 'not_found', message: 'No identity with this tag.' }],
        ['zz_missing_tag_here', 404, { code: 'not_found', message: 'No identity with this tag.' }],
        [
          'a-b',
          400,
          {
            code: 'invalid_request',
            message: '`tag`: must be a tag: 3–32 of a-z, 0-9 and _, not starting or ending with _',
          },
        ],
        [7, 400, { code: 'invalid_request', message: '`tag`: Invalid input: expected string, received number' }],
      ];
      for (const [tag, status, error] of CASES) {
        const res = await putPrimary(tag, token);
        expect([res.status, res.json], JSON.stringify(tag)).toEqual([status, { error }]);
      }
      // The refused choices changed nothing.
      expect((await reverse(someoneElses.owner)).json).toEqual({
        address: someoneElses.owner,
        tag: `@${someoneElses.tag}`,
      });
    });

    it('answers { owner, tag: null } for a caller with no active tag', async () => {
      const { token, keypair } = await signIn(appUrl);
      const res = await putPrimary(null, token);
      expect([res.status, res.json]).toEqual([200, { owner: keypair.publicKey, tag: null }]);
    });

    it('429 past the rate limit, with Retry-After', async () => {
      const { token } = await signIn(appUrl);
      const headers = { ...clientHeaders(), authorization: `Bearer ${token}` };
      let last: Response | undefined;
      for (let i = 0; i < 200 && last?.status !== 429; i++) {
        last = await fetch(`${appUrl}/v1/primary`, { method: 'PUT', headers, body: JSON.stringify({ tag: null }) });
        await last.arrayBuffer();
      }
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
