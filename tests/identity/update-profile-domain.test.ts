import { afterAll, describe, expect, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { AppError } from '@/lib/core/errors';
import { parseWith } from '@/lib/http/parse';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { ProfilePatch } from '@/lib/features/identity/schemas';
import { updateProfile } from '@/lib/features/identity/update-profile';
import { newKeypair } from '../support/keypair';
import { closeTestDb, expectedIdentity, FORBIDDEN, NOT_FOUND, readRow, seedIdentity, testDb } from './helpers';
import { localOwnerCheck, localTokenCheck } from '../support/owner-check';

/*
 * updateProfile called directly against the test PostgreSQL, beside the HTTP table of
 * update-profile.test.ts: who may write, what is written, and that refusals write nothing.
 */

afterAll(closeTestDb);

const me = newKeypair().publicKey;
const other = newKeypair().publicKey;

async function update(tag: string, caller: string, patch: unknown, now = new Date()) {
  // parsed as the route parses them, so updateProfile gets its typed input
  return updateProfile(
    (await testDb()).db,
    { tag: parseTagParam(tag), caller, patch: parseWith(ProfilePatch, patch) },
    now,
    localOwnerCheck(),
    localTokenCheck(),
  );
}

/** The envelope an AppError becomes, to compare with the HTTP tests' constants. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { error: { code: (error as AppError).code, message: (error as AppError).message } };
}

describe('updateProfile', () => {
  const REFUSALS: Record<string, { tag: () => Promise<string>; envelope: unknown }> = {
    'a missing tag is not_found': { tag: async () => randomTag(), envelope: NOT_FOUND },
    'my own blocked tag is not_found': {
      tag: async () => (await seedIdentity({ owner: me, status: 'blocked' })).tag,
      envelope: NOT_FOUND,
    },
    "someone else's blocked tag is not_found, not forbidden": {
      tag: async () => (await seedIdentity({ owner: other, status: 'blocked' })).tag,
      envelope: NOT_FOUND,
    },
    "someone else's active tag is forbidden": {
      tag: async () => (await seedIdentity({ owner: other })).tag,
      envelope: FORBIDDEN,
    },
    "someone else's tag paid out to my wallet is still forbidden": {
      tag: async () => (await seedIdentity({ owner: other, wallet: me })).tag,
      envelope: FORBIDDEN,
    },
  };
  for (const [name, c] of Object.entries(REFUSALS)) {
    it(`${name}, and nothing is written`, async () => {
      const tag = await c.tag();
      const before = await readRow(tag);
      expect(await refusal(update(tag, me, { displayName: 'x' }))).toEqual(c.envelope);
      expect(await readRow(tag)).toEqual(before);
    });
  }

  it('the owner writes the fields given, stamped with `now`, and gets the whole identity back', async () => {
    const row = await seedIdentity({ owner: me, displayName: 'Keep', bio: 'Drop me' });
    const now = new Date(Date.now() + 60_000);
    const identity = await update(`@${row.tag}`, me, { bio: null, preferredToken: 'usdc' }, now);
    expect(identity).toEqual({ ...expectedIdentity(row), bio: null, preferredToken: 'USDC' });
    expect(await readRow(row.tag)).toEqual({ ...row, bio: null, preferredToken: 'USDC', updatedAt: now });
  });

  it('an empty patch writes nothing and answers the identity', async () => {
    const row = await seedIdentity({ owner: me, displayName: 'Same' });
    expect(await update(row.tag, me, {})).toEqual(expectedIdentity(row));
    expect(await readRow(row.tag)).toEqual(row);
  });
});
