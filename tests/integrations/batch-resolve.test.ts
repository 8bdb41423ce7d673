import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { postJson } from '../support/http';
import { appUrl, closeTestDb, get, requireApp, seedIdentity } from './support';

/*
 * POST /v1/resolve: up to 100 tags in one request, any accepted spelling, each answered
 * exactly as GET /v1/resolve/{tag} answers it (null where that is a 404).
 */

beforeAll(requireApp);
afterAll(closeTestDb);

const resolveBatch = (body: unknown) => postJson(`${appUrl}/v1/resolve`, body);

const TAG_RULE = 'must be a tag: 3–32 of a-z, 0-9 and _, not starting or ending with _, optionally with a leading @';

describe('POST /v1/resolve', () => {
  it('a mix of live, missing, blocked and differently spelled tags answers what single resolves answer', async () => {
    const live = await seedIdentity({
      displayName: 'Live One',
      bio: 'not in a resolve answer',
      preferredToken: 'USDC',
    });
    const other = await seedIdentity({ verified: true });
    const blocked = await seedIdentity({ status: 'blocked', displayName: 'Blocked' });
    const missing = randomTag();
    const spellings = [
      live.tag,
      `@${other.tag.toUpperCase()}`,
      blocked.tag,
      missing,
      `%40${live.tag}`,
      ` ${other.tag} `,
    ];

    const res = await resolveBatch({ tags: spellings });
    expect(res.status, res.text).toBe(200);
    const results = (res.json as { results: Record<string, unknown> }).results;
    expect(Object.keys(results)).toEqual([live.tag, other.tag, blocked.tag, missing]);

    for (const tag of Object.keys(results)) {
      const single = await get(`/v1/resolve/${tag}`);
      expect(results[tag], tag).toEqual(single.status === 200 ? single.json : null);
    }
    expect(results[blocked.tag]).toBeNull();
    expect(results[missing]).toBeNull();
    expect(results[live.tag]).toMatchObject({ tag: `@${live.tag}`, displayName: 'Live One', preferredToken: 'USDC' });
    expect(results[live.tag]).not.toHaveProperty('bio');
  });

  it('takes 100 tags; 101 is a 400', async () => {
    const row = await seedIdentity();
    const hundred = [row.tag, ...Array.from({ length: 99 }, () => randomTag())];
    const ok = await resolveBatch({ tags: hundred });
    expect(ok.status).toBe(200);
    const results = (ok.json as { results: Record<string, unknown> }).results;
    expect(Object.keys(results)).toHaveLength(100);
    expect(results[row.tag]).toMatchObject({ tag: `@${row.tag}` });

    const tooMany = await resolveBatch({ tags: [...hundred, randomTag()] });
    expect([tooMany.status, tooMany.json]).toEqual([
      400,
      { error: { code: 'invalid_request', message: '`tags`: at most 100 tags per request' } },
    ]);
  });

  const BAD: Record<string, { body: unknown; code: string; message: string }> = {
    'a malformed tag, named': {
      body: { tags: ['alice', 'bob', 'a-b'] },
      code: 'invalid_tag',
      message: `\`tags[2]\` "a-b": ${TAG_RULE}`,
    },
    'a number among the tags': {
      body: { tags: ['alice', 7] },
      code: 'invalid_tag',
      message: '`tags[1]` (number): Invalid input: expected string, received number',
    },
    'no tags key': {
      body: { tag: ['alice'] },
      code: 'invalid_request',
      message: '`tags`: is required: a list of tags',
    },
    'an unknown key': { body: { tags: [], max: 5 }, code: 'invalid_request', message: 'Unrecognized key: "max"' },
    'tags not a list': { body: { tags: 'alice' }, code: 'invalid_request', message: '`tags`: must be a list of tags' },
    'a body that is no object': {
      body: ['alice'],
      code: 'invalid_request',
      message: 'Invalid input: expected object, received array',
    },
  };
  for (const [name, c] of Object.entries(BAD)) {
    it(`400 for ${name}`, async () => {
      const res = await resolveBatch(c.body);
      expect([res.status, res.json]).toEqual([400, { error: { code: c.code, message: c.message } }]);
    });
  }

  it('an empty list answers an empty result', async () => {
    const res = await resolveBatch({ tags: [] });
    expect([res.status, res.json]).toEqual([200, { results: {} }]);
  });
});
