// Public reads of many tags at once, in one process, so they really share batched queries.
import { describe, expect, it } from 'vitest';
import { findActiveIdentity } from '@/lib/features/identity/active';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { stackDatabase } from '../support/database';

const database = stackDatabase();

describe('findActiveIdentity, many tags at once', () => {
  it('each read gets the row of its own tag; blocked and missing tags read null', async () => {
    const active = await Promise.all(Array.from({ length: 12 }, () => insertIdentity(database.db)));
    const blocked = await insertIdentity(database.db, { status: 'blocked' });
    const missing = randomTag();
    const tags = [...active.map((r) => r.tag), blocked.tag, missing, ...active.map((r) => r.tag).reverse()];
    const rows = await Promise.all(tags.map((tag) => findActiveIdentity(database.db, tag)));
    expect(rows.map((r) => r?.tag ?? null)).toEqual(
      tags.map((tag) => (tag === blocked.tag || tag === missing ? null : tag)),
    );
    expect(rows[0]).toMatchObject({ tag: active[0].tag, owner: active[0].owner, status: 'active' });
  });
});
