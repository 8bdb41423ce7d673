// GET /v1/openapi.json — the OpenAPI 3.1 document of /v1, generated from the request schemas
import Negotiator from 'negotiator';
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { withApi } from '@/lib/api/handler';
import { createOpenApiDocument } from '@/lib/api/openapi';
import { AppError } from '@/lib/errors';

let body: string | undefined;

export const GET = withCors(
  withApi(async (req, { services: { config } }) => {
    if (!new Negotiator({ headers: { accept: req.headers.get('accept') ?? '*/*' } }).mediaType(['application/json'])) {
      throw new AppError('not_acceptable', 'This document is served as application/json only.');
    }
    body ??= JSON.stringify(createOpenApiDocument({ serverUrl: config.appUrl.origin }));
    return new Response(body, {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', Vary: 'Accept' },
    });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
