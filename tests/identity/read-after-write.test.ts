import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { openDb, type DbHandle } from '@/lib/db/client';
import { createDatabase } from '@/devstack/postgres';
import { findActiveIdentity } from '@/lib/features/identity/active';
import { startSlowLink, type SlowLink } from './slow-link';

/*
 * The sync 404 race: identity reads are batched, and a read must never be answered
 * by a query that started before it was asked. Otherwise a read asked right after a write
 * (POST /v1/sync inserts, then reads the identity it answers with) could get the answer of a
 * query already in flight when the write committed: 404 for the tag just inserted.
 *
 * The app's handle talks to PostgreSQL over a link whose answers arrive 300 ms late, so a
 * query stays in flight; the write goes through a connection of its own meanwhile.
 */

const DELAY_MS = 300;
let link: SlowLink;
let app: DbHandle;
let writer: DbHandle;

beforeAll(async () => {
  const url = await createDatabase(inject('databaseUrl'));
  link = await startSlowLink(url, DELAY_MS);
  app = await openDb({ driver: 'node-postgres', url: link.url }, { poolSize: 2 });
  writer = await openDb({ driver: 'node-postgres', url }, { poolSize: 1 });
  await findActiveIdentity(app.db, 'warmup'); // connect and prepare before the timed part
});
afterAll(async () => {
  await app?.close();
  await writer?.close();
  await link?.close();
});

describe('a read asked after a write sees it, even with a read of the same tag in flight', () => {
  it('a read started before the insert answers null; one asked after the insert answers the row', async () => {
    const tag = randomTag('raw_');
    const before = findActiveIdentity(app.db, tag); // in flight for DELAY_MS, snapshot taken now
    await new Promise((r) => setTimeout(r, DELAY_MS / 6));
    await insertIdentity(writer.db, { tag }); // committed while `before` is still in flight
    const after = findActiveIdentity(app.db, tag);
    expect(await before).toBeNull();
    expect(await after).toMatchObject({ tag, status: 'active' });
  });

  it('reads of one tag asked together still share one answer', async () => {
    const row = await insertIdentity(writer.db);
    const reads = await Promise.all(Array.from({ length: 20 }, () => findActiveIdentity(app.db, row.tag)));
    for (const r of reads) expect(r).toMatchObject({ tag: row.tag });
  });
});
