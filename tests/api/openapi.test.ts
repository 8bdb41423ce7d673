import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { get } from '@/tests/identity/helpers';
import { servedV1Operations } from '@/tests/identity/routes';
import { IDENTITY_FIELDS } from '@/tests/support/identity';

type Answer = { $ref?: string; description?: string; content?: Record<string, { schema: { $ref?: string } }> };
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, Answer> }>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    responses: Record<string, Answer>;
  };
};

/** A response as a client reads it: a reference to a shared one resolved, its own description kept. */
function resolved(doc: Doc, answer: Answer): Answer {
  if (!answer.$ref) return answer;
  const shared = doc.components.responses[answer.$ref.replace('#/components/responses/', '')];
  return { ...shared, description: answer.description ?? shared.description };
}

describe('GET /v1/openapi.json', () => {
  let doc: Doc;

  it('is served, publicly cacheable and CORS-open', async () => {
    const res = await get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    doc = res.json as Doc;
    expect(doc.openapi).toBe('3.1.0');
  });

  it('validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
    expect(result.warnings).toEqual([]);
  });

  it('documents every route the app serves under /v1 (found by walking app/v1)', async () => {
    const served = (await servedV1Operations()).map((o) => `${o.method} ${o.path}`);
    expect(served.length).toBeGreaterThanOrEqual(7);
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(served.filter((op) => !documented.includes(op))).toEqual([]);
    // and documents nothing the app does not serve
    expect(documented.filter((op) => !served.includes(op))).toEqual([]);
  });

  it('covers the endpoints of the spec', () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual([
      'DELETE /v1/webhooks/{id}',
      'GET /v1/auth/session',
      'GET /v1/availability/{tag}',
      'GET /v1/ens',
      'GET /v1/ens/{sender}/{data}',
      'GET /v1/events',
      'GET /v1/identity/{tag}',
      'GET /v1/identity/{tag}/signals',
      'GET /v1/identity/{tag}/transfer',
      'GET /v1/openapi.json',
      'GET /v1/payments/{reference}',
      'GET /v1/resolve/{tag}',
      'GET /v1/reverse/{address}',
      'GET /v1/webhooks',
      'GET /v1/webhooks/{id}/deliveries',
      'PATCH /v1/identity/{tag}',
      'POST /v1/auth/challenge',
      'POST /v1/auth/verify',
      'POST /v1/ens',
      'POST /v1/identity/{tag}/release',
      'POST /v1/identity/{tag}/transfer',
      'POST /v1/identity/{tag}/transfer/accept',
      'POST /v1/identity/{tag}/transfer/cancel',
      'POST /v1/identity/{tag}/wallet',
      'POST /v1/payments',
      'POST /v1/register',
      'POST /v1/resolve',
      'POST /v1/reverse',
      'POST /v1/sync',
      'POST /v1/webhooks',
      'POST /v1/webhooks/{id}/replay',
      'POST /v1/webhooks/{id}/rotate',
      'PUT /v1/primary',
    ]);
  });

  it('uses one error envelope with the code enum, and bearer JWT security where a token is needed', () => {
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: {
            code: { enum: expect.arrayContaining(['invalid_tag', 'not_found', 'unauthorized', 'forbidden']) },
          },
        },
      },
    });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    const secured = [
      'PATCH /v1/identity/{tag}',
      'GET /v1/auth/session',
      'POST /v1/register',
      'POST /v1/identity/{tag}/wallet',
      'POST /v1/identity/{tag}/transfer',
      'POST /v1/identity/{tag}/transfer/cancel',
      'POST /v1/identity/{tag}/transfer/accept',
      'POST /v1/identity/{tag}/release',
      'PUT /v1/primary',
      'GET /v1/webhooks',
      'POST /v1/webhooks',
      'DELETE /v1/webhooks/{id}',
      'POST /v1/webhooks/{id}/rotate',
      'POST /v1/webhooks/{id}/replay',
      'GET /v1/webhooks/{id}/deliveries',
    ];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${p}`;
        expect(op.security, name).toEqual(secured.includes(name) ? [{ bearerAuth: [] }] : []);
        if (secured.includes(name)) expect(op.responses, name).toHaveProperty('401');
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400) {
            expect(response.$ref, `${name} ${status}`).toMatch(/^#\/components\/responses\//);
            expect(resolved(doc, response).content?.['application/json'].schema.$ref, `${name} ${status}`).toBe(
              '#/components/schemas/Error',
            );
          }
        }
      }
    }
  });

  it('each error status is one shared response, which an operation refers to with what it means there', () => {
    const patch = doc.paths['/v1/identity/{tag}'].patch.responses;
    expect(patch['403']).toEqual({
      $ref: '#/components/responses/Error',
      description: 'The tag belongs to another public key',
    });
    expect(patch['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(resolved(doc, patch['429'])).toMatchObject({
      description: 'Rate limit exceeded',
      headers: { 'Retry-After': expect.anything() },
    });
  });

  it('the identity schemas list every field; the profile patch refuses unknown keys', () => {
    expect(doc.components.schemas.Identity).toMatchObject({
      required: [...IDENTITY_FIELDS],
    });
    expect((doc.components.schemas.ResolvedIdentity as { properties: object }).properties).not.toHaveProperty('bio');
    expect(doc.components.schemas.ProfilePatch).toMatchObject({ additionalProperties: false });
    expect(doc.paths['/v1/identity/{tag}'].patch.responses).toHaveProperty('403');
  });

  it('documents the webhook itself (OpenAPI 3.1 `webhooks`): the feed event, signed', () => {
    const hook = (
      doc as unknown as {
        webhooks: Record<
          string,
          {
            post: {
              requestBody: { content: Record<string, { schema: { $ref: string } }> };
              parameters: { name: string; in: string }[];
            };
          }
        >;
      }
    ).webhooks.identityChange.post;
    expect(hook.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/IdentityEvent');
    expect(hook.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
      'header webhook-id',
      'header webhook-timestamp',
      'header webhook-signature',
    ]);
  });
});
