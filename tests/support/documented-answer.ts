import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { ApiResponse } from './http';

/*
 * Checks an answer against what GET /v1/openapi.json says of it, as a client generated from
 * the document would (an openapi-fetch client validating with Ajv): the status is documented,
 * every header the document marks required is present, and the body validates against the
 * documented schema.
 */

type Header = { required?: boolean; $ref?: string };
type Answer = { $ref?: string; headers?: Record<string, Header>; content?: Record<string, { schema: unknown }> };
type Document = {
  paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
  components: { responses?: Record<string, Answer>; headers?: Record<string, Header> };
};

const DOCUMENT_ID = 'openapi.json';

/** The name a `#/components/<kind>/<name>` reference points at. */
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

export function documentedAnswers(document: unknown) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...(document as object), $id: DOCUMENT_ID });
  const doc = document as Document;

  return function expectDocumented(path: string, method: string, res: ApiResponse): void {
    const listed = doc.paths[path]?.[method]?.responses[String(res.status)];
    expect(listed, `${method.toUpperCase()} ${path} documents ${res.status}`).toBeDefined();
    // A shared response (components.responses) or header (components.headers) is read where it is written.
    const where = listed!.$ref
      ? ['components', 'responses', refName(listed!.$ref)]
      : ['paths', path, method, 'responses', String(res.status)];
    const answer = listed!.$ref ? doc.components.responses![refName(listed!.$ref)] : listed!;
    for (const [name, header] of Object.entries(answer.headers ?? {})) {
      const required = header.$ref ? doc.components.headers![refName(header.$ref)].required : header.required;
      if (required) expect(res.headers.get(name), `required header ${name}`).not.toBeNull();
    }
    if (!answer.content) return;
    const pointer = [...where, 'content', 'application/json', 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`)!;
    expect(validate(res.json), JSON.stringify(validate.errors)).toBe(true);
  };
}
