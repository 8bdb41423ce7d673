import { afterAll, describe, expect, inject, it } from 'vitest';
import { queryOf } from '@/lib/http/parse';
import { AppError } from '@/lib/core/errors';
import { clientHeaders, postJson, readResponse } from '../support/http';
import { closeTestDb, seedIdentity } from '../identity/helpers';

/*
 * A query parameter given twice is refused where the query is read (lib/http/parse.ts
 * `queryOf`): with the last value winning, `?amount=1&amount=1000` would pay 1,000 where a
 * link shows 1.
 */

const appUrl = inject('appUrl');
afterAll(closeTestDb);
const repeated = (name: string) => ({
  error: { code: 'invalid_request', message: `\`${name}\`: is given more than once; give it once` },
});

describe('a repeated query parameter', () => {
  it('queryOf: one value per name, 400 for a name given twice', () => {
    expect(queryOf(new Request('http://x/p?a=1&b=2'))).toEqual({ a: '1', b: '2' });
    expect(() => queryOf(new Request('http://x/p?amount=1&amount=1000'))).toThrow(
      new AppError('invalid_request', '`amount`: is given more than once; give it once'),
    );
    expect(() => queryOf(new Request('http://x/p?a=1&a=1'))).toThrow(AppError);
  });

  it('GET /v1/events?limit=1&limit=2: 400 in the envelope', async () => {
    const res = await readResponse(await fetch(`${appUrl}/v1/events?limit=1&limit=2`, { headers: clientHeaders() }));
    expect([res.status, res.json]).toEqual([400, repeated('limit')]);
  });

  it('POST /api/actions/pay/{tag}?amount=1&amount=1000: 400 in the envelope, no transaction built', async () => {
    const row = await seedIdentity();
    const res = await postJson(`${appUrl}/api/actions/pay/${row.tag}?amount=1&amount=1000`, { account: row.owner });
    // an Action's errors also carry the spec's top-level `message` (ActionError)
    expect([res.status, res.json]).toEqual([400, { ...repeated('amount'), message: repeated('amount').error.message }]);
  });
});
