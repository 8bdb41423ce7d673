import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { wrappersOf } from '@/lib/api/answers';
import { answerableErrors, createOpenApiDocument, V1_OPERATIONS, wrappersOfOperation } from '@/lib/api/openapi';
import { HTTP_METHODS } from './routes';

/*
 * The statuses the OpenAPI document lists for each operation against the statuses its route
 * can answer: what the handler's wrappers can answer (read from the wrappers each exported
 * handler really went through, lib/api/answers.ts), a JSON body's, and the operation's own.
 */

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
type RouteModule = Record<string, ((req: Request, ctx: unknown) => Response | Promise<Response>) | undefined>;

/** One operation a route file serves: its handler's wrappers and every status it can answer. */
interface ServedOperation {
  name: string;
  path: string;
  method: Lowercase<(typeof HTTP_METHODS)[number]>;
  wrappers: string[];
  answers: string[];
}

const V1_PATH_FILES = Object.keys(V1_OPERATIONS).map((p) => ({
  path: p,
  file: path.join(process.cwd(), 'app', p.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts'),
}));

/** Imports every documented path's route file and reads each method it serves (an unserved one answers 405). */
async function servedOperations(): Promise<{ served: ServedOperation[]; problems: string[] }> {
  const served: ServedOperation[] = [];
  const problems: string[] = [];
  for (const { path: p, file } of V1_PATH_FILES) {
    const mod = (await import(file)) as RouteModule;
    for (const METHOD of HTTP_METHODS) {
      const method = METHOD.toLowerCase() as ServedOperation['method'];
      const handler = mod[METHOD];
      const name = `${METHOD} ${p}`;
      const op = V1_OPERATIONS[p][method];
      const wrappers = handler ? wrappersOf(handler).sort() : [];
      if (!op) {
        // not documented: must be routeMethods' 405 (no wrappers: it never reaches a handler)
        const status = handler ? (await handler(new Request(`http://test${p}`, { method: METHOD }), {})).status : 405;
        if (wrappers.length || status !== 405) problems.push(`${name}: served but not documented`);
        continue;
      }
      if (!handler) {
        problems.push(`${name}: documented but ${path.relative(process.cwd(), file)} exports no ${METHOD}`);
        continue;
      }
      const declared = wrappersOfOperation(op).sort();
      if (JSON.stringify(wrappers) !== JSON.stringify(declared)) {
        problems.push(`${name}: its handler goes through [${wrappers}], its operation declares [${declared}]`);
      }
      const answers = [...Object.keys(op.responses), ...Object.keys(answerableErrors(op, wrappersOf(handler)))];
      served.push({ name, path: p, method, wrappers, answers: [...new Set(answers)].sort() });
    }
  }
  return { served, problems };
}

/** Every difference between what each route can answer and what the document lists for it. */
function coverageGaps(doc: Doc, served: ServedOperation[]): string[] {
  const gaps: string[] = [];
  for (const op of served) {
    const listed = Object.keys(doc.paths[op.path]?.[op.method]?.responses ?? {});
    for (const status of op.answers) if (!listed.includes(status)) gaps.push(`${op.name}: can answer ${status}, the document does not list it`);
    for (const status of listed) if (!op.answers.includes(status)) gaps.push(`${op.name}: the document lists ${status}, the route cannot answer it`);
  }
  return gaps;
}

describe('OpenAPI coverage: each route answers exactly the statuses the document lists', async () => {
  const doc = createOpenApiDocument() as unknown as Doc;
  const { served, problems } = await servedOperations();

  it('each route file serves exactly its documented methods, through the wrappers its operation declares', () => {
    expect(served.length).toBe(Object.values(V1_OPERATIONS).flatMap((item) => Object.keys(item)).length);
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
    expect(coverageGaps(edited, served)).toEqual(['GET /v1/events: the document lists 409, the route cannot answer it']);
  });

  it('the wrappers’ statuses: withApi’s 500 and 503 everywhere, 429 where rate-limited, 415 where a JSON body is read', () => {
    const statuses = (name: string) => served.find((op) => op.name === name)?.answers;
    expect(statuses('GET /v1/availability/{tag}')).toEqual(['200', '429', '500', '503']);
    expect(statuses('GET /v1/openapi.json')).toEqual(['200', '406', '500', '503']);
    expect(statuses('POST /v1/identity/{tag}/transfer/accept')).toEqual(
      ['200', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503'],
    );
    expect(statuses('PATCH /v1/identity/{tag}')).toEqual(['200', '400', '401', '403', '404', '413', '415', '500', '503']);
  });

  it('the generated document validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
    expect(result.warnings).toEqual([]);
  });
});
