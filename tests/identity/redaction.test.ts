import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { identityEvents } from '@/lib/db/schema';
import { updateProfile } from '@/lib/features/identity/update-profile';
import { admin } from '../support/admin-cli';
import { closeTestDb, expectedIdentity, get, readRow, seedIdentity, testDb } from '../identity/helpers';
import { localOwnerCheck, localTokenCheck } from '../support/owner-check';

/*
 * Moderation's redaction of a blocked tag's change-feed history (`npm run admin -- redact
 * <tag>`): the events stay (ids, types, times, places), the profile text they carry is
 * replaced by null, and the row's profile is cleared so that an unblock cannot bring it back.
 */

afterAll(closeTestDb);

async function eventsOf(tag: string) {
  const { db } = await testDb();
  return db
    .select()
    .from(identityEvents)
    .where(eq(identityEvents.tag, tag))
    .orderBy(asc(identityEvents.xid), asc(identityEvents.id));
}

describe('npm run admin -- redact <tag>', () => {
  it("replaces a blocked tag's profile text in every event, keeps the events, and clears the row", async () => {
    const { db } = await testDb();
    const row = await seedIdentity();
    for (const bio of ['first words', 'second words']) {
      await updateProfile(
        db,
        {
          tag: row.tag,
          caller: row.owner,
          patch: { displayName: 'Abusive Name', bio, avatar: 'https://example.com/a.png' },
        },
        new Date(),
        localOwnerCheck(),
        localTokenCheck(),
      );
    }
    expect((await admin('block', row.tag)).code).toBe(0);
    const before = await eventsOf(row.tag);
    expect(before.map((e) => e.type)).toEqual(['upsert', 'upsert', 'remove']);

    const redacted = await admin('redact', `@${row.tag}`);
    expect(redacted.code, redacted.stderr).toBe(0);
    expect(JSON.parse(redacted.stdout)).toEqual({ tag: row.tag, redactedEvents: 2 });

    const after = await eventsOf(row.tag);
    expect(after.map(({ id, type, xid, at }) => ({ id, type, xid, at }))).toEqual(
      before.map(({ id, type, xid, at }) => ({ id, type, xid, at })),
    );
    for (const [i, event] of after.entries()) {
      if (event.identity === null) continue;
      const was = before[i]!.identity as Record<string, unknown>;
      // the same keys in the same order, the profile's text gone, the rest as it was
      expect(Object.keys(event.identity as object)).toEqual(Object.keys(was));
      expect(event.identity).toEqual({ ...was, displayName: null, avatar: null, bio: null, preferredToken: null });
    }
    expect(await readRow(row.tag)).toMatchObject({
      status: 'blocked',
      displayName: null,
      avatar: null,
      bio: null,
      preferredToken: null,
    });

    // unblocking shows the tag without the redacted text
    expect((await admin('unblock', row.tag)).code).toBe(0);
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(
      expectedIdentity({ ...row, displayName: null, avatar: null, bio: null, preferredToken: null }),
    );
  });

  it('refuses a tag that is not blocked, and changes nothing', async () => {
    const { db } = await testDb();
    const row = await seedIdentity();
    await updateProfile(
      db,
      { tag: row.tag, caller: row.owner, patch: { bio: 'still live' } },
      new Date(),
      localOwnerCheck(),
      localTokenCheck(),
    );
    const res = await admin('redact', row.tag);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('error: conflict: Only a blocked tag can be redacted: block it first.\n');
    expect(((await eventsOf(row.tag))[0]!.identity as { bio: string }).bio).toBe('still live');
  });

  it('an unknown tag: not_found', async () => {
    const res = await admin('redact', 'zz_no_such_tag_here');
    expect([res.code, res.stderr]).toEqual([1, 'error: not_found: No identity with this tag.\n']);
  });
});
