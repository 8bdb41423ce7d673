import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/sign-in';
import { appUrl, closeTestDb, patchIdentity, readRow, seedIdentity } from './helpers';

afterAll(closeTestDb);

const ENVELOPE = { error: { code: expect.any(String), message: expect.any(String) } };
const NOT_AN_OBJECT = { error: { code: 'invalid_request', message: 'the body must be a JSON object' } };
const NOT_JSON = { error: { code: 'invalid_request', message: 'The request body must be JSON.' } };
const TOO_LARGE = { error: { code: 'payload_too_large', message: 'The request body must be at most 16384 bytes.' } };

/** Raw bodies sent to PATCH /v1/identity/{own tag}, and the exact answer. */
const CASES: Record<string, { body: string | Uint8Array<ArrayBuffer>; status: number; envelope: unknown }> = {
  'a 1 MB body': { body: JSON.stringify({ bio: 'a'.repeat(1 << 20) }), status: 413, envelope: TOO_LARGE },
  'a body just over 16 KiB': { body: JSON.stringify({ bio: 'a'.repeat(16 * 1024) }), status: 413, envelope: TOO_LARGE },
  'deeply nested arrays': { body: '['.repeat(5000) + ']'.repeat(5000), status: 400, envelope: NOT_AN_OBJECT },
  'deeply nested objects': { body: '{"a":'.repeat(2000) + '1' + '}'.repeat(2000), status: 400, envelope: ENVELOPE },
  'non-UTF-8 bytes': {
    body: new Uint8Array([0x7b, 0x22, 0x62, 0x69, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    status: 400,
    envelope: { error: { code: 'invalid_request', message: 'The request body must be UTF-8 JSON.' } },
  },
  'UTF-16 with a BOM': {
    body: new Uint8Array(Buffer.from('\ufeff{"bio":"x"}', 'utf16le')),
    status: 400,
    envelope: ENVELOPE,
  },
  'not JSON': { body: 'displayName=alice', status: 400, envelope: NOT_JSON },
  'truncated JSON': { body: '{"displayName": "ali', status: 400, envelope: NOT_JSON },
  'empty body': { body: '', status: 400, envelope: NOT_JSON },
  'an array': { body: '[{"displayName":"a"}]', status: 400, envelope: NOT_AN_OBJECT },
  'a number': { body: '42', status: 400, envelope: NOT_AN_OBJECT },
  'a string instead of an object': { body: '"displayName"', status: 400, envelope: NOT_AN_OBJECT },
  null: { body: 'null', status: 400, envelope: NOT_AN_OBJECT },
  true: { body: 'true', status: 400, envelope: NOT_AN_OBJECT },
  'a huge number of keys': {
    body: JSON.stringify(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, 1]))),
    status: 400,
    envelope: ENVELOPE,
  },
  'NaN-like literal': { body: '{"displayName": NaN}', status: 400, envelope: NOT_JSON },
};

describe('bad input to PATCH /v1/identity/{tag}: the envelope, never a 500', () => {
  let me: { token: string; pubkey: string };
  beforeAll(async () => {
    const s = await signIn(appUrl);
    me = { token: s.token, pubkey: s.keypair.publicKey };
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(name, async () => {
      const row = await seedIdentity({ owner: me.pubkey, displayName: 'unchanged' });
      const res = await patchIdentity(row.tag, c.body, me.token);
      expect(res.status).toBe(c.status);
      expect(res.json).toEqual(c.envelope);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.text).not.toMatch(/at .*\.(js|ts):\d+|stack/i);
      expect(await readRow(row.tag)).toEqual(row);
    });
  }

  it('a 1 MB body without a token is 401 (authentication first)', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    const res = await patchIdentity(row.tag, JSON.stringify({ bio: 'a'.repeat(1 << 20) }));
    expect(res.status).toBe(401);
  });

  it('other methods are 405', async () => {
    const row = await seedIdentity({ owner: me.pubkey });
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await fetch(`${appUrl}/v1/identity/${row.tag}`, {
        method,
        headers: { authorization: `Bearer ${me.token}` },
      });
      expect(res.status).toBe(405);
    }
    expect(await readRow(row.tag)).toEqual(row);
  });
});
