import { eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { identities } from '@/lib/db/schema';
import { fillRecordAddresses } from '@/lib/indexer/fill-record-addresses';
import { findTagRecordAddress } from '@/lib/registry/pda';
import { ownDatabase } from '../support/database';
import { PROGRAM_ID } from './support';

/*
 * Rows mirrored before `identities.pda` existed get their record address from the indexer
 * (one UPDATE per batch); once a pass finds nothing left, the handle is not asked again.
 * A database of its own, so no other test's rows are counted.
 */

const database = ownDatabase();

describe('fillRecordAddresses', () => {
  it('fills every row without an address, then stops looking once a pass finds none', async () => {
    const rows = await Promise.all([0, 1, 2].map(() => insertIdentity(database.db)));
    const kept = await insertIdentity(database.db, { pda: 'kept-as-it-is' });

    expect(await fillRecordAddresses(database.db, PROGRAM_ID)).toBe(3);
    const after = new Map((await database.db.select().from(identities)).map((r) => [r.tag, r.pda]));
    for (const row of rows) expect(after.get(row.tag)).toBe(findTagRecordAddress(row.tag, PROGRAM_ID)[0].toBase58());
    expect(after.get(kept.tag)).toBe('kept-as-it-is');

    // A pass that filled rows does not prove none is left: the next one looks again.
    const late = await insertIdentity(database.db);
    expect(await fillRecordAddresses(database.db, PROGRAM_ID)).toBe(1);
    const [{ pda }] = await database.db.select().from(identities).where(eq(identities.tag, late.tag));
    expect(pda).toBe(findTagRecordAddress(late.tag, PROGRAM_ID)[0].toBase58());
    expect(await fillRecordAddresses(database.db, PROGRAM_ID)).toBe(0);

    // That empty pass was the last: this handle's indexer always writes the address itself.
    await insertIdentity(database.db);
    expect(await fillRecordAddresses(database.db, PROGRAM_ID)).toBe(0);
    expect(await database.db.select().from(identities).where(isNull(identities.pda))).toHaveLength(1);
  });
});
