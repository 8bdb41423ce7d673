import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/sign-in';
import { appUrl, closeTestDb, expectedIdentity, get, patchIdentity, requireApp, seedIdentity } from './support';

/*
 * Conditional GETs (DESIGN.md "For integrators"): every public read has an ETag; a matching
 * If-None-Match is a 304 with no body; a change of the answer is a new ETag.
 */

beforeAll(requireApp);
afterAll(closeTestDb);

const CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';

describe('conditional GETs', () => {
  it('GET /v1/identity: 304 with no body for a matching If-None-Match, a new ETag after a PATCH', async () => {
    const { token, keypair } = await signIn(appUrl);
    const row = await seedIdentity({ owner: keypair.publicKey, wallet: keypair.publicKey });
    const first = await get(`/v1/identity/${row.tag}`);
    expect(first.status).toBe(200);
    expect(first.json).toEqual(expectedIdentity(row));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe(CACHE_CONTROL);

    const again = await get(`/v1/identity/${row.tag}`, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(CACHE_CONTROL);

    // Another spelling of the tag is the same answer, so the same ETag.
    expect((await get(`/v1/identity/@${row.tag.toUpperCase()}`, { 'if-none-match': `W/${etag}` })).status).toBe(304);

    expect((await patchIdentity(row.tag, { displayName: 'Changed' }, token)).status).toBe(200);
    const changed = await get(`/v1/identity/${row.tag}`, { 'if-none-match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ displayName: 'Changed' });
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  const READS: Record<string, (tag: string, owner: string) => string> = {
    'GET /v1/resolve/{tag}': (tag) => `/v1/resolve/${tag}`,
    'GET /v1/reverse/{address}': (_tag, owner) => `/v1/reverse/${owner}`,
    'GET /v1/identity/{tag}/transfer': (tag) => `/v1/identity/${tag}/transfer`,
  };
  for (const [name, path] of Object.entries(READS)) {
    it(`${name}: ETag, 304 on a match, 200 on a list without it`, async () => {
      const row = await seedIdentity();
      const first = await get(path(row.tag, row.owner));
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"/);
      const hit = await get(path(row.tag, row.owner), { 'if-none-match': `"other", ${etag}` });
      expect([hit.status, hit.text]).toEqual([304, '']);
      const miss = await get(path(row.tag, row.owner), { 'if-none-match': '"other"' });
      expect([miss.status, miss.json]).toEqual([200, first.json]);
    });
  }

  it('an error answer has no ETag and is not cached', async () => {
    const res = await get('/v1/identity/zz_nobody_has_this', { 'if-none-match': '*' });
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('browsers on other origins may send If-None-Match and read the ETag', async () => {
    const preflight = await fetch(`${appUrl}/v1/identity/alice`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://wallet.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    const row = await seedIdentity();
    const res = await get(`/v1/identity/${row.tag}`, { origin: 'https://wallet.example' });
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
  });
});
