import { v1Routes } from '@/app/v1/v1-routes';
import { createOpenApiDocument } from '@/lib/http/openapi';
import { documentedAnswers } from './documented-answer';
import { readResponse, type ApiResponse } from './http';

/*
 * Every error answer the in-process app (./in-process.ts) gives to any test is checked against
 * the document GET /v1/openapi.json serves: its status is listed on the operation, and its body
 * validates (Ajv) against the schema listed there. A mismatch fails the test that met it. The
 * document is built from the routes' declarations and the error tables (lib/http/openapi.ts),
 * so a code or a `reason` another change adds is checked the moment it is declared.
 *
 * The helpers that call the shared app (./http.ts `postJson`, `postAuthed`) check theirs too, the
 * operation found by its path (`expectDocumentedErrorAt`).
 *
 * Not checked here: HEAD (no body), the CORS preflight, and a method a path does not serve
 * (405, the document's own description says so): they belong to no operation.
 */

let expectDocumented: ReturnType<typeof documentedAnswers> | undefined;

function checker(): ReturnType<typeof documentedAnswers> {
  expectDocumented ??= documentedAnswers(JSON.parse(JSON.stringify(createOpenApiDocument(v1Routes()))));
  return expectDocumented;
}

/** Throws (failing the test that made the request) when an error answer of `path`'s `method` is not as documented. */
export async function expectDocumentedError(path: string, method: string, response: Response): Promise<void> {
  const operationMethod = method.toLowerCase();
  if (response.status < 400 || operationMethod === 'head' || operationMethod === 'options') return;
  if (response.status === 405) return;
  checker()(path, operationMethod, await readResponse(response.clone()));
}

type Paths = Record<string, unknown>;
let templates: { template: string; pattern: RegExp }[] | undefined;

/** The document's path templates as patterns (`{name}` is one segment). */
function pathTemplates(): { template: string; pattern: RegExp }[] {
  templates ??= Object.keys(createOpenApiDocument(v1Routes()).paths as Paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));
  return templates;
}

/**
 * The same check for an answer read from a URL: the operation is the document's path the URL's
 * path matches (none: a path the document does not name, its 404 described in the document's
 * own description, is left alone).
 */
export function expectDocumentedErrorAt(url: string, method: string, answer: ApiResponse): void {
  const operationMethod = method.toLowerCase();
  if (answer.status < 400 || answer.status === 405 || operationMethod === 'head' || operationMethod === 'options')
    return;
  const { pathname } = new URL(url);
  const found = pathTemplates().find(({ pattern }) => pattern.test(pathname));
  if (found) checker()(found.template, operationMethod, answer);
}
