import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { ApiResponse } from './http';

/*
 * Checks an answer against what GET /v1/openapi.json says of it, as a client generated from
 * the document would (an openapi-fetch client validating with Ajv): the status is documented,
 * every header the document marks required is present, and the body validates against the
 * documented schema.
 */

type Header = { required?: boolean };
type Answer = { headers?: Record<string, Header>; content?: Record<string, { schema: unknown }> };
type Document = { paths: Record<string, Record<string, { responses: Record<string, Answer> }>> };

const DOCUMENT_ID = 'openapi.json';

export function documentedAnswers(document: unknown) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...(document as object), $id: DOCUMENT_ID });
  const doc = document as Document;

  return function expectDocumented(path: string, method: string, res: ApiResponse): void {
    const answer = doc.paths[path]?.[method]?.responses[String(res.status)];
    expect(answer, `${method.toUpperCase()} ${path} documents ${res.status}`).toBeDefined();
    for (const [name, header] of Object.entries(answer!.headers ?? {})) {
      if (header.required) expect(res.headers.get(name), `required header ${name}`).not.toBeNull();
    }
    if (!answer!.content) return;
    const pointer = ['paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`)!;
    expect(validate(res.json), JSON.stringify(validate.errors)).toBe(true);
  };
}
