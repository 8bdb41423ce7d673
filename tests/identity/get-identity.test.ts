import { afterAll, describe, expect, it } from 'vitest';
import { moderate } from '@/lib/features/identity/moderation';
import { IDENTITY_FIELDS, NO_PROFILE } from '../support/identity';
import { closeTestDb, expectedIdentity, get, INVALID_TAG, NOT_FOUND, seedIdentity, testDb } from './helpers';

afterAll(closeTestDb);

const PUBLIC_CACHE = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';

describe('GET /v1/identity/{tag} and /v1/resolve/{tag}', () => {
  it('shows every field of an active identity, cleared ones as null, tag with @, createdAt with ms', async () => {
    const row = await seedIdentity();
    const res = await get(`/v1/identity/${row.tag}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      tag: `@${row.tag}`,
      owner: row.owner,
      wallet: row.owner,
      ...NO_PROFILE,
      createdAt: '2025-03-04T05:06:07.089Z',
    });
    expect(Object.keys(res.json as object).sort()).toEqual([...IDENTITY_FIELDS].sort());
  });

  it('shows a full profile as stored, createdAt in ISO 8601 UTC with milliseconds', async () => {
    const row = await seedIdentity({
      displayName: 'Ålice 🌸',
      avatar: 'https://example.com/a.png',
      bio: 'line one\nשלום',
      preferredToken: 'USDC',
      verified: true,
      merchant: true,
      createdAt: new Date('2024-12-31T23:59:59.000Z'),
    });
    const res = await get(`/v1/identity/${row.tag}`);
    expect(res.json).toEqual(expectedIdentity(row));
    expect((res.json as { createdAt: string }).createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((res.json as { createdAt: string }).createdAt).toBe('2024-12-31T23:59:59.000Z');
  });

  it('resolve answers the same object without a bio key', async () => {
    const row = await seedIdentity({ bio: 'secret-ish', displayName: 'Bob' });
    const res = await get(`/v1/resolve/${row.tag}`);
    expect(res.status).toBe(200);
    const { bio: _bio, ...withoutBio } = expectedIdentity(row);
    expect(res.json).toEqual(withoutBio);
    expect(res.json).not.toHaveProperty('bio');
  });

  const PATH_FORMS: Record<string, (tag: string) => string> = {
    bare: (t) => t,
    'leading @': (t) => `@${t}`,
    'leading %40': (t) => `%40${t}`,
    'upper case': (t) => t.toUpperCase(),
    '@ and upper case': (t) => `@${t.toUpperCase()}`,
    'mixed case %40': (t) => `%40${t[0].toUpperCase()}${t.slice(1)}`,
  };
  for (const [name, form] of Object.entries(PATH_FORMS)) {
    for (const route of ['identity', 'resolve']) {
      it(`${route}: path form ${name}`, async () => {
        const row = await seedIdentity();
        const res = await get(`/v1/${route}/${form(row.tag)}`);
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({ tag: `@${row.tag}`, owner: row.owner });
      });
    }
  }

  it('a missing and a blocked tag answer byte-identical 404s', async () => {
    const blocked = await seedIdentity({ status: 'blocked' });
    for (const route of ['identity', 'resolve']) {
      const missing = await get(`/v1/${route}/zz_missing_${blocked.tag.slice(2)}`);
      const hidden = await get(`/v1/${route}/${blocked.tag}`);
      expect(missing.status).toBe(404);
      expect(hidden.status).toBe(404);
      expect(missing.json).toEqual(NOT_FOUND);
      expect(hidden.text).toBe(missing.text);
      for (const header of ['content-type', 'cache-control', 'access-control-allow-origin']) {
        expect(hidden.headers.get(header)).toBe(missing.headers.get(header));
      }
    }
  });

  it('a tag blocked then unblocked is readable again', async () => {
    const row = await seedIdentity();
    const { db } = await testDb();
    await moderate(db, row.tag, 'block');
    expect((await get(`/v1/identity/${row.tag}`)).status).toBe(404);
    await moderate(db, row.tag, 'unblock');
    expect((await get(`/v1/identity/${row.tag}`)).status).toBe(200);
  });

  const MALFORMED: Record<string, string> = {
    'too short': 'ab',
    'too long': 'a'.repeat(33),
    '10,000 characters': 'a'.repeat(10_000),
    'leading underscore': '_abc',
    'trailing underscore': 'abc_',
    hyphen: 'al-ice',
    dot: 'al.ice',
    'encoded space': 'al%20ice',
    'two @': '@@alice',
    emoji: '%F0%9F%98%80abc',
    'right-to-left mark': 'ali%E2%80%8Fce',
    'bidi override': '%E2%80%AEecila',
    'NUL byte': 'ali%00ce',
    'Cyrillic look-alike': '%D0%B0lice',
  };
  for (const [name, tag] of Object.entries(MALFORMED)) {
    for (const route of ['identity', 'resolve']) {
      it(`${route}: malformed tag (${name}) is 400 even though no such tag exists`, async () => {
        const res = await get(`/v1/${route}/${tag}`);
        expect(res.status).toBe(400);
        expect(res.json).toEqual(INVALID_TAG);
      });
    }
  }

  // An encoded slash never reaches the route: the door refuses it before routing (issue 42,
  // lib/http/request-target.ts), so no segment can hold one.
  for (const route of ['identity', 'resolve']) {
    it(`${route}: a tag with an encoded slash is 400 before routing`, async () => {
      const res = await get(`/v1/${route}/al%2Fice`);
      expect([res.status, (res.json as { error: { code: string } }).error.code]).toEqual([400, 'invalid_request']);
    });
  }

  // Next.js answers a dynamic segment whose %-escapes are not UTF-8 with a text/plain 500 in
  // route matching, before any handler (vercel/next.js#92557); proxy.ts refuses such paths first.
  for (const [name, tag] of Object.entries({
    'non-UTF-8 byte': 'ali%FFce',
    'overlong UTF-8': '%C0%AF',
    'truncated escape': '%E0%A4%A',
  })) {
    it(`undecodable path (${name}) is a 400 in the envelope, never a 500`, async () => {
      const res = await get(`/v1/identity/${tag}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: { code: 'invalid_request', message: 'The path has an invalid percent-encoding.' },
      });
    });
  }

  it('reserved-looking but well-formed tags that do not exist are plain 404s', async () => {
    const res = await get('/v1/identity/admin');
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
  });

  it('200s are publicly cacheable and CORS-open; errors are no-store', async () => {
    const row = await seedIdentity();
    for (const route of ['identity', 'resolve']) {
      const okRes = await get(`/v1/${route}/${row.tag}`, { origin: 'https://wallet.example' });
      expect(okRes.headers.get('cache-control')).toBe(PUBLIC_CACHE);
      expect(okRes.headers.get('access-control-allow-origin')).toBe('*');
      expect(okRes.headers.get('content-type')).toMatch(/^application\/json/);
      for (const path of [`/v1/${route}/zz_${row.tag}`, `/v1/${route}/a-b`]) {
        const err = await get(path, { origin: 'https://wallet.example' });
        expect(err.headers.get('cache-control')).toBe('no-store');
        expect(err.headers.get('access-control-allow-origin')).toBe('*');
      }
    }
  });

  it('GET cannot be used to change anything: query strings are ignored', async () => {
    const row = await seedIdentity();
    const res = await get(`/v1/identity/${row.tag}?verified=true&status=blocked`);
    expect(res.json).toEqual(expectedIdentity(row));
  });
});
