import { describe, expect, it } from 'vitest';
import { expectDocumentedError, expectDocumentedErrorAt } from '../support/error-contract';
import { heldInProcessApp } from '../support/in-process';

/*
 * The error contract (issue 41 item 8, issue 42 item 8): every status a /v1 operation answers is
 * listed on it, with a body schema the answer matches. The in-process app checks every error
 * answer any test meets (tests/support/error-contract.ts); here, that the check fails when it
 * should, and one refused request per operation of the document.
 */

const envelope = (status: number, error: Record<string, string>) => Response.json({ error }, { status });

describe('the check itself', () => {
  it('passes the documented fields: unsafe_payout with its reason, quarantined with until, lookalike with tag', async () => {
    await expectDocumentedError(
      '/v1/register',
      'POST',
      envelope(400, { code: 'unsafe_payout', message: 'm', reason: 'off_curve' }),
    );
    await expectDocumentedError(
      '/v1/register',
      'POST',
      envelope(409, { code: 'quarantined', message: 'm', until: '2026-01-31T12:00:00.000Z' }),
    );
    await expectDocumentedError(
      '/v1/register',
      'POST',
      envelope(409, { code: 'lookalike', message: 'm', tag: '@alice' }),
    );
    await expectDocumentedError(
      '/v1/reverse/{address}',
      'GET',
      envelope(404, { code: 'not_found', message: 'm', reason: 'not_indexed' }),
    );
  });

  it('fails a status the operation does not list', async () => {
    await expect(
      expectDocumentedError('/v1/identity/{tag}', 'GET', envelope(409, { code: 'conflict', message: 'm' })),
    ).rejects.toThrow(/documents 409/);
  });

  it('fails a field outside the envelope, an unknown code and an unknown reason', async () => {
    const errors: Record<string, string>[] = [
      { code: 'not_found', message: 'm', hint: 'x' },
      { code: 'no_such_code', message: 'm' },
      { code: 'unsafe_payout', message: 'm', reason: 'cursed' },
    ];
    for (const error of errors)
      await expect(expectDocumentedError('/v1/register', 'POST', envelope(400, error))).rejects.toThrow();
  });

  it('finds the operation of a URL for the shared app’s helpers (tests/support/http.ts)', () => {
    const answer = (status: number, error: object) => ({ status, headers: new Headers(), text: '', json: { error } });
    expectDocumentedErrorAt(
      'http://127.0.0.1:1/v1/identity/alice',
      'GET',
      answer(404, { code: 'not_found', message: 'm' }),
    );
    expect(() =>
      expectDocumentedErrorAt(
        'http://127.0.0.1:1/v1/identity/alice',
        'GET',
        answer(409, { code: 'conflict', message: 'm' }),
      ),
    ).toThrow(/documents 409/);
    expect(() =>
      expectDocumentedErrorAt(
        'http://127.0.0.1:1/v1/register',
        'POST',
        answer(409, { code: 'quarantined', message: 'm', when: 'x' }),
      ),
    ).toThrow();
    // A path the document does not name: its 404 is the document's own description's.
    expectDocumentedErrorAt('http://127.0.0.1:1/v1/no/such', 'GET', answer(404, { code: 'not_found', message: 'm' }));
  });

  it('leaves alone what belongs to no operation: 2xx, HEAD, 405', async () => {
    await expectDocumentedError('/v1/identity/{tag}', 'GET', Response.json({}, { status: 200 }));
    await expectDocumentedError('/v1/identity/{tag}', 'HEAD', envelope(409, { code: 'conflict', message: 'm' }));
    await expectDocumentedError(
      '/v1/identity/{tag}',
      'PUT',
      envelope(405, { code: 'method_not_allowed', message: 'm' }),
    );
  });
});

type Doc = {
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { in: string; name: string }[] }>>;
};

describe('one refused request per operation, through the in-process app (which checks the answer)', () => {
  const app = heldInProcessApp();

  it('every operation answers a malformed path, query or body, or a missing token, as it documents', async () => {
    const doc = (await (await app().fetch('/v1/openapi.json')).json()) as Doc;
    const statuses: Record<string, number> = {};
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // A path parameter that no route accepts, a query parameter given twice and a body that is
        // not JSON: the first check that fails answers.
        const path = template.replace(/\{\w+\}/g, 'not%20valid!');
        const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${p.name}=1&${p.name}=2`);
        const res = await app().fetch(query.length ? `${path}?${query.join('&')}` : path, {
          method: method.toUpperCase(),
          headers: { 'x-forwarded-for': '203.0.113.91', 'content-type': 'application/json' },
          ...(op.requestBody ? { body: '{' } : {}),
        });
        statuses[`${method.toUpperCase()} ${template}`] = res.status;
      }
    }
    // Every operation refused something (the in-process app has checked each answer against the
    // document), but the two that take no input: the document itself and the ENS gateway's facts.
    const refused = Object.entries(statuses).filter(([, status]) => status >= 400);
    const answered = Object.entries(statuses)
      .filter(([, status]) => status < 400)
      .map(([name]) => name);
    expect(answered.sort()).toEqual(['GET /v1/ens', 'GET /v1/openapi.json']);
    expect(refused.length).toBeGreaterThan(20);
  });
});
