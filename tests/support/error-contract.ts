import { v1Routes } from '@/app/v1/v1-routes';
import { createOpenApiDocument } from '@/lib/http/openapi';
import { documentedAnswers } from './documented-answer';
import { readResponse } from './http';

/*
 * Every error answer the in-process app (./in-process.ts) gives to any test is checked against
 * the document GET /v1/openapi.json serves: its status is listed on the operation, and its body
 * validates (Ajv) against the schema listed there. A mismatch fails the test that met it. The
 * document is built from the routes' declarations and the error tables (lib/http/openapi.ts),
 * so a code or a `reason` another change adds is checked the moment it is declared.
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
