import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { newKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';
import {
  appUrl,
  closeTestDb,
  expectedIdentity,
  FORBIDDEN,
  get,
  INVALID_TAG,
  invalidRequest,
  NOT_FOUND,
  patchIdentity,
  readRow,
  seedIdentity,
  UNAUTHORIZED,
} from './helpers';

afterAll(closeTestDb);

describe('PATCH /v1/identity/{tag}', () => {
  let me: { token: string; pubkey: string };
  let other: { token: string; pubkey: string };

  beforeAll(async () => {
    const a = await signIn(appUrl);
    const b = await signIn(appUrl);
    me = { token: a.token, pubkey: a.keypair.publicKey };
    other = { token: b.token, pubkey: b.keypair.publicKey };
  });

  describe('checks run in SPEC 4.4 order: 401, 400 tag, 400 body, 404, 403', () => {
    const CASES: Record<
      string,
      { tag: () => Promise<string>; body: unknown; token: () => string | undefined; status: number; envelope: unknown }
    > = {
      'no token': {
        tag: async () => (await seedIdentity({ owner: me.pubkey })).tag,
        body: { displayName: 'x' },
        token: () => undefined,
        status: 401,
        envelope: UNAUTHORIZED,
      },
      'a bad token with a bad body is 401, not 400': {
        tag: async () => 'ab',
        body: '{not json',
        token: () => 'not.a.jwt',
        status: 401,
        envelope: UNAUTHORIZED,
      },
      'a bad token on a missing tag is 401, not 404': {
        tag: async () => randomTag(),
        body: {},
        token: () => 'x',
        status: 401,
        envelope: UNAUTHORIZED,
      },
      "a bad token on another owner's tag is 401, not 403": {
        tag: async () => (await seedIdentity()).tag,
        body: {},
        token: () => 'x',
        status: 401,
        envelope: UNAUTHORIZED,
      },
      'malformed tag that does not exist is 400': {
        tag: async () => 'no-such',
        body: { displayName: 'x' },
        token: () => me.token,
        status: 400,
        envelope: INVALID_TAG,
      },
      'malformed tag with a malformed body is 400 invalid_tag (tag first)': {
        tag: async () => 'a',
        body: '[[[',
        token: () => me.token,
        status: 400,
        envelope: INVALID_TAG,
      },
      'malformed tag with a 1 MB body is 400 invalid_tag (tag first)': {
        tag: async () => '_x_',
        body: JSON.stringify({ bio: 'b'.repeat(1 << 20) }),
        token: () => me.token,
        status: 400,
        envelope: INVALID_TAG,
      },
      'well-formed missing tag with a bad body is 400 (body before existence)': {
        tag: async () => randomTag(),
        body: { wallet: 'x' },
        token: () => me.token,
        status: 400,
        envelope: invalidRequest('`wallet` cannot be changed through this endpoint'),
      },
      'missing tag is 404': {
        tag: async () => randomTag(),
        body: { displayName: 'x' },
        token: () => me.token,
        status: 404,
        envelope: NOT_FOUND,
      },
      'my own blocked tag is 404': {
        tag: async () => (await seedIdentity({ owner: me.pubkey, status: 'blocked' })).tag,
        body: { displayName: 'x' },
        token: () => me.token,
        status: 404,
        envelope: NOT_FOUND,
      },
      "someone else's blocked tag is 404, not 403": {
        tag: async () => (await seedIdentity({ status: 'blocked' })).tag,
        body: { displayName: 'x' },
        token: () => me.token,
        status: 404,
        envelope: NOT_FOUND,
      },
      "someone else's active tag is 403": {
        tag: async () => (await seedIdentity({ owner: other.pubkey })).tag,
        body: { displayName: 'x' },
        token: () => me.token,
        status: 403,
        envelope: FORBIDDEN,
      },
      "someone else's tag paid out to my wallet is still 403": {
        tag: async () => (await seedIdentity({ owner: other.pubkey, wallet: me.pubkey })).tag,
        body: { displayName: 'x' },
        token: () => me.token,
        status: 403,
        envelope: FORBIDDEN,
      },
    };
    for (const [name, c] of Object.entries(CASES)) {
      it(name, async () => {
        const tag = await c.tag();
        const before = await readRow(tag);
        const res = await patchIdentity(tag, c.body, c.token());
        expect(res.status).toBe(c.status);
        expect(res.json).toEqual(c.envelope);
        expect(res.headers.get('cache-control')).toBe('no-store');
        if (c.status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(await readRow(tag)).toEqual(before); // nothing changed
      });
    }
  });

  it('the owner edits all four fields and gets the whole identity back', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    const res = await patchIdentity(
      row.tag,
      {
        displayName: '  Alice  ',
        avatar: 'https://cdn.example.com/a.png',
        bio: 'Hello\r\nworld',
        preferredToken: 'usdc',
      },
      me.token,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...expectedIdentity(row),
      displayName: 'Alice',
      avatar: 'https://cdn.example.com/a.png',
      bio: 'Hello\nworld',
      preferredToken: 'USDC',
    });
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(res.json);
    const after = await readRow(row.tag);
    expect(after!.updatedAt.getTime()).toBeGreaterThan(row.updatedAt.getTime());
  });

  it('an omitted key leaves the field; null clears it; empty string clears it', async () => {
    const row = await seedIdentity({
      owner: me.pubkey,
      displayName: 'Keep',
      bio: 'Drop me',
      avatar: 'https://x.example/a',
      preferredToken: 'SOL',
    });
    const res = await patchIdentity(`@${row.tag}`, { bio: null, avatar: '   ' }, me.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...expectedIdentity(row), bio: null, avatar: null });
    const after = await readRow(row.tag);
    expect(after).toMatchObject({ displayName: 'Keep', bio: null, avatar: null, preferredToken: 'SOL' });
  });

  it('an empty object changes nothing and answers the identity', async () => {
    const row = await seedIdentity({ owner: me.pubkey, displayName: 'Same' });
    const res = await patchIdentity(row.tag, {}, me.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expectedIdentity(row));
    expect(await readRow(row.tag)).toEqual(row);
  });

  it('accepts the path forms @tag, %40tag and upper case', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    for (const [i, form] of [`@${row.tag}`, `%40${row.tag}`, row.tag.toUpperCase()].entries()) {
      const res = await patchIdentity(form, { displayName: `n${i}` }, me.token);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ tag: `@${row.tag}`, displayName: `n${i}` });
    }
  });

  const NOT_EDITABLE: Record<string, { body: Record<string, unknown>; message: string }> = {
    wallet: { body: { wallet: newKeypair().publicKey }, message: '`wallet` cannot be changed through this endpoint' },
    verified: { body: { verified: true }, message: '`verified` cannot be changed through this endpoint' },
    merchant: { body: { merchant: true }, message: '`merchant` cannot be changed through this endpoint' },
    owner: { body: { owner: newKeypair().publicKey }, message: '`owner` cannot be changed through this endpoint' },
    tag: { body: { tag: 'stolen' }, message: '`tag` cannot be changed through this endpoint' },
    status: { body: { status: 'active' }, message: '`status` cannot be changed through this endpoint' },
    createdAt: {
      body: { createdAt: '2020-01-01T00:00:00.000Z' },
      message: '`createdAt` cannot be changed through this endpoint',
    },
    'wallet beside a valid field': {
      body: { displayName: 'Mallory', wallet: newKeypair().publicKey },
      message: '`wallet` cannot be changed through this endpoint',
    },
    'verified beside a valid field': {
      body: { bio: 'hi', verified: true, merchant: true },
      message: '`verified`, `merchant` cannot be changed through this endpoint',
    },
    'an unknown key': {
      body: { displayname: 'typo' },
      message: 'unknown key `displayname`; editable keys are displayName, avatar, bio, preferredToken, nostr',
    },
    __proto__: {
      body: JSON.parse('{"__proto__": {"verified": true}}'),
      message: 'unknown key `__proto__`; editable keys are displayName, avatar, bio, preferredToken, nostr',
    },
  };
  for (const [name, c] of Object.entries(NOT_EDITABLE)) {
    it(`refuses ${name} with 400 naming the key, and changes nothing`, async () => {
      const row = await seedIdentity({ owner: me.pubkey, displayName: 'Original' });
      const res = await patchIdentity(row.tag, c.body, me.token);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(invalidRequest(c.message));
      expect(await readRow(row.tag)).toEqual(row);
      expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(expectedIdentity(row));
    });
  }

  it('two concurrent PATCHes of different fields both survive (10 rounds)', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all([
        patchIdentity(row.tag, { displayName: `name ${round}` }, me.token),
        patchIdentity(row.tag, { bio: `bio ${round}` }, me.token),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const after = await readRow(row.tag);
      expect(after).toMatchObject({ displayName: `name ${round}`, bio: `bio ${round}` });
    }
  });

  it('a token is bound to its key: my token cannot edit after the tag is handed over', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    expect((await patchIdentity(row.tag, { displayName: 'mine' }, me.token)).status).toBe(200);
    const res = await patchIdentity(row.tag, { displayName: 'theirs' }, other.token);
    expect(res.status).toBe(403);
    expect((await readRow(row.tag))!.displayName).toBe('mine');
  });
});
