import { describe, expect, inject, it } from 'vitest';
import { clientHeaders, postJson } from '../support/http';
import { newKeypair } from '../support/keypair';

const appUrl = inject('appUrl');

const ENVELOPE = { error: { code: expect.any(String), message: expect.any(String) } };

/** Raw bodies (strings are sent as they are) and the statuses the envelope may carry. */
const CASES: Record<string, { body: string; status: number[] }> = {
  'not JSON': { body: 'pubkey=abc', status: [400] },
  'empty body': { body: '', status: [400] },
  'an array': { body: '[1,2,3]', status: [400] },
  'a number': { body: '42', status: [400] },
  null: { body: 'null', status: [400] },
  'wrong types': { body: JSON.stringify({ pubkey: 12, message: true, signature: [] }), status: [400] },
  'missing fields': { body: '{}', status: [400] },
  'a 1 MB body': { body: JSON.stringify({ pubkey: 'a'.repeat(1024 * 1024) }), status: [413] },
  'control characters': {
    body: JSON.stringify({ pubkey: 'abc\u0000\u0007\u001b[31m', message: 'x\u0000', signature: '\u0001' }),
    status: [400, 401],
  },
  'an invalid public key': {
    body: JSON.stringify({ pubkey: '0OIl'.repeat(11), message: 'm', signature: 's' }),
    status: [400, 401],
  },
  'deep nesting': { body: '['.repeat(3000) + ']'.repeat(3000), status: [400, 413] },
  'a truncated JSON document': { body: '{"pubkey": "abc', status: [400] },
};

describe('bad input to the sign-in endpoints: the envelope, never a 500', () => {
  for (const endpoint of ['challenge', 'verify']) {
    for (const [name, c] of Object.entries(CASES)) {
      it(`${endpoint}: ${name}`, async () => {
        const res = await postJson(`${appUrl}/v1/auth/${endpoint}`, c.body);
        expect(c.status).toContain(res.status);
        expect(res.json).toEqual(ENVELOPE);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(res.text).not.toMatch(/at .*\.(js|ts):\d+|stack/i);
      });
    }
  }

  it('non-UTF-8 bytes are refused with 400', async () => {
    const res = await fetch(`${appUrl}/v1/auth/challenge`, {
      method: 'POST',
      headers: clientHeaders(),
      body: Buffer.from([0x7b, 0x22, 0x70, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(ENVELOPE);
  });

  it('challenge for a non-key string names the field', async () => {
    const res = await postJson(`${appUrl}/v1/auth/challenge`, { pubkey: 'alice' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: { code: 'invalid_request', message: expect.stringContaining('pubkey') } });
  });

  it('a GET is not a sign-in', async () => {
    const res = await fetch(`${appUrl}/v1/auth/challenge`);
    expect(res.status).toBe(405);
  });

  it('a valid challenge still works after all that (control)', async () => {
    const res = await postJson(`${appUrl}/v1/auth/challenge`, { pubkey: newKeypair().publicKey });
    expect(res.status).toBe(200);
  });
});
