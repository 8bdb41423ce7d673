import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { identities } from '@/lib/db/schema';
import { ogImageVersion } from '@/lib/web/server/og-image-store';
import { appUrl, closeTestDb, seedIdentity, testDb } from '../identity/helpers';

/*
 * The /@tag share image (app/profile/[tag]/opengraph-image): drawn once per tag and profile
 * version and kept, its version the ETag (a crawler's repeat is a 304), immutable under
 * `?v=<version>`, and a new version as soon as what it shows changes.
 */

afterAll(closeTestDb);

const image = (tag: string, init: { query?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${appUrl}/profile/${tag}/opengraph-image${init.query ?? ''}`, { headers: init.headers });

describe('GET /profile/{tag}/opengraph-image', () => {
  it('answers the PNG with its version as ETag; the same bytes again; If-None-Match is a 304', async () => {
    const row = await seedIdentity({ displayName: 'Share Me' });
    const first = await image(row.tag);
    const png = Buffer.from(await first.arrayBuffer());
    const version = ogImageVersion({
      tag: `@${row.tag}`,
      displayName: 'Share Me',
      bio: null,
      verified: false,
      merchant: false,
    });
    expect([
      first.status,
      first.headers.get('content-type'),
      first.headers.get('etag'),
      first.headers.get('cache-control'),
    ]).toEqual([200, 'image/png', `"${version}"`, 'public, max-age=3600, stale-while-revalidate=86400']);
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    const again = await image(row.tag);
    expect(Buffer.from(await again.arrayBuffer()).equals(png)).toBe(true);

    const revalidated = await image(row.tag, { headers: { 'if-none-match': `"${version}"` } });
    expect([revalidated.status, revalidated.headers.get('etag'), await revalidated.text()]).toEqual([
      304,
      `"${version}"`,
      '',
    ]);
  });

  it('under ?v=<version> the image is immutable; a stale ?v= gets the plain URL’s caching', async () => {
    const row = await seedIdentity({ displayName: 'Versioned' });
    const plain = await image(row.tag);
    await plain.arrayBuffer();
    const version = plain.headers.get('etag')!.slice(1, -1);
    const pinned = await image(row.tag, { query: `?v=${version}` });
    expect([pinned.status, pinned.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    await pinned.arrayBuffer();
    const stale = await image(row.tag, { query: '?v=old' });
    expect([stale.status, stale.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=3600, stale-while-revalidate=86400',
    ]);
    await stale.arrayBuffer();
  });

  it('a profile edit makes a new version: the old ETag no longer matches', async () => {
    const row = await seedIdentity({ displayName: 'Before' });
    const before = await image(row.tag);
    await before.arrayBuffer();
    const { db } = await testDb();
    await db.update(identities).set({ displayName: 'After' }).where(eq(identities.tag, row.tag));
    const after = await image(row.tag, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    await after.arrayBuffer();
  });

  it('a missing tag: 404 in the envelope, nothing drawn', async () => {
    const res = await image('zz_no_such_tag_here');
    expect([res.status, await res.json()]).toEqual([
      404,
      { error: { code: 'not_found', message: 'No identity with this tag.' } },
    ]);
  });
});
