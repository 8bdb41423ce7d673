import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '@/lib/http/openapi';
import { answerableErrors, HTTP_METHODS, type V1Method } from '@/lib/http/v1-route';
import { v1Routes } from '@/app/v1/v1-routes';
import { v1RouteModules } from '@/tests/identity/routes';

/*
 * The statuses the OpenAPI document lists for each operation against the statuses its route
 * can answer: what its declared checks can answer (lib/http/v1-route.ts `ENFORCED_STATUSES`:
 * withApi's, the token's, the rate limit's, a JSON body's) and the operation's own. The route
 * files, their declarations and the document's list of routes (app/v1/v1-routes.ts) must agree.
 */

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** One operation a route file serves and every status it can answer. */
interface ServedOperation {
  name: string;
  path: string;
  method: string;
  answers: string[];
}

const routes = await v1RouteModules();

/** Every operation the route files declare, with what each can answer. */
function servedOperations(): ServedOperation[] {
  return routes.flatMap(({ path, declaration }) =>
    Object.entries(declaration?.operations ?? {}).map(([method, op]) => ({
      name: `${method} ${path}`,
      path,
      method: method.toLowerCase(),
      answers: [...new Set([...Object.keys(op.responses), ...Object.keys(answerableErrors(op))])].sort(),
    })),
  );
}

/** Every difference between what each route can answer and what the document lists for it. */
function coverageGaps(doc: Doc, served: ServedOperation[]): string[] {
  const gaps: string[] = [];
  for (const op of served) {
    const listed = Object.keys(doc.paths[op.path]?.[op.method]?.responses ?? {});
    for (const status of op.answers)
      if (!listed.includes(status)) gaps.push(`${op.name}: can answer ${status}, the document does not list it`);
    for (const status of listed)
      if (!op.answers.includes(status))
        gaps.push(`${op.name}: the document lists ${status}, the route cannot answer it`);
  }
  return gaps;
}

describe('OpenAPI coverage: each route answers exactly the statuses the document lists', () => {
  const doc = createOpenApiDocument(v1Routes()) as unknown as Doc;
  const served = servedOperations();

  it('every app/v1 route file is made by v1Route with the path of its folder, and the document lists each once', () => {
    expect(routes.filter((r) => r.declaration?.path !== r.path).map((r) => r.file)).toEqual([]);
    expect(
      v1Routes()
        .map((r) => r.path)
        .sort(),
    ).toEqual(routes.map((r) => r.path).sort());
    expect(served.length).toBe(Object.values(doc.paths).flatMap((item) => Object.keys(item)).length);
  });

  it('a method a route does not declare answers 405 with Allow, in the envelope, before any check', async () => {
    const problems: string[] = [];
    for (const { path, module, declaration } of routes) {
      const declared = Object.keys(declaration?.operations ?? {}) as V1Method[];
      for (const method of HTTP_METHODS.filter((m) => !['HEAD', 'OPTIONS', ...declared].includes(m))) {
        const handler = module[method] as (req: Request, ctx: unknown) => Response | Promise<Response>;
        const res = await handler(new Request(`http://test${path}`, { method }), {});
        const allow = res.headers.get('allow') ?? '';
        if (res.status !== 405 || declared.some((m) => !allow.includes(m)))
          problems.push(`${method} ${path}: ${res.status} Allow: ${allow}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the document lists every status each route can answer, and no other', () => {
    expect(coverageGaps(doc, served)).toEqual([]);
  });

  it('fails when a route’s status is removed from the document', () => {
    const edited = structuredClone(doc);
    delete edited.paths['/v1/availability/{tag}'].get.responses['429'];
    delete edited.paths['/v1/register'].post.responses['415'];
    expect(coverageGaps(edited, served)).toEqual([
      'GET /v1/availability/{tag}: can answer 429, the document does not list it',
      'POST /v1/register: can answer 415, the document does not list it',
    ]);
  });

  it('fails when the document lists a status the route cannot answer', () => {
    const edited = structuredClone(doc);
    edited.paths['/v1/events'].get.responses['409'] = edited.paths['/v1/events'].get.responses['400'];
    expect(coverageGaps(edited, served)).toEqual([
      'GET /v1/events: the document lists 409, the route cannot answer it',
    ]);
  });

  it('the declared checks’ statuses: withApi’s 500 and 503 everywhere, 429 where rate-limited, 415 where a JSON body is read', () => {
    const statuses = (name: string) => served.find((op) => op.name === name)?.answers;
    // 400: an unsafe `?wallet=` (unsafe_payout)
    expect(statuses('GET /v1/availability/{tag}')).toEqual(['200', '400', '429', '500', '503']);
    expect(statuses('GET /v1/openapi.json')).toEqual(['200', '406', '500', '503']);
    expect(statuses('POST /v1/identity/{tag}/transfer/accept')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(statuses('PATCH /v1/identity/{tag}')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
  });

  it('the generated document validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
    expect(result.warnings).toEqual([]);
  });
});
