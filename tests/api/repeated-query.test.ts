import { afterAll, describe, expect, inject, it } from 'vitest';
import { queryOf } from '@/lib/http/parse';
import { AppError } from '@/lib/core/errors';
import { clientHeaders, postJson, readResponse } from '../support/http';
import { closeTestDb, seedIdentity } from '../identity/helpers';
import { heldInProcessApp } from '../support/in-process';

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

/** A well-formed value for each path parameter the document names, so that only the query can be refused. */
const PATH_SAMPLES: Record<string, string> = {
  tag: 'alice',
  address: '9Tx6VK5kgApYxqrMwz4G3toysj6fQLJUXxWYBp474Rwp',
  reference: '9Tx6VK5kgApYxqrMwz4G3toysj6fQLJUXxWYBp474Rwp',
  id: '00000000-0000-4000-8000-000000000000',
};

type Parameter = { in: string; name: string };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

describe('every documented query parameter given twice', () => {
  const app = heldInProcessApp();

  it('answers 400 naming it, on every operation that has one, before its token is read', async () => {
    const doc = (await (await app().fetch('/v1/openapi.json')).json()) as Doc;
    const walked: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const { name } of (op.parameters ?? []).filter((p) => p.in === 'query')) {
          const path = template.replace(/\{(\w+)\}/g, (_, param: string) => PATH_SAMPLES[param] ?? 'x');
          const res = await app().fetch(`${path}?${name}=1&${name}=2`, {
            method: method.toUpperCase(),
            headers: { 'x-forwarded-for': '203.0.113.90' },
          });
          expect([res.status, await res.json()], `${method.toUpperCase()} ${template} ${name}`).toEqual([
            400,
            repeated(name),
          ]);
          walked.push(`${method.toUpperCase()} ${template} ${name}`);
        }
      }
    }
    // The operations this test was written against; one that adds a parameter is walked too.
    expect(walked).toEqual(
      expect.arrayContaining(['GET /v1/events after', 'GET /v1/events limit', 'GET /v1/availability/{tag} wallet']),
    );
  });
});
