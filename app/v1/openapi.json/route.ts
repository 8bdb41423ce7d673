// GET /v1/openapi.json — the OpenAPI 3.1 document of /v1, built from the routes' declarations
import { z } from 'zod';
import { acceptsJson } from '@/lib/http/accepts-json';
import { ok } from '@/lib/http/docs';
import { createOpenApiDocument } from '@/lib/http/openapi';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { AppError } from '@/lib/core/errors';
import { v1Routes } from '../v1-routes';

export const dynamic = 'force-dynamic';

let body: string | undefined;

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/openapi.json', {
  GET: v1Operation({
    operationId: 'getOpenApiDocument',
    tags: ['meta'],
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: ok('The document', z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })),
    },
    errors: { 406: 'The request’s `Accept` excludes `application/json`, the only form of the document' },
    handler: async (req, { services: { config } }) => {
      if (!acceptsJson(req.headers.get('accept'))) {
        throw new AppError('not_acceptable', 'This document is served as application/json only.');
      }
      body ??= JSON.stringify(createOpenApiDocument(v1Routes(), { serverUrl: config.appUrl.origin }));
      return new Response(body, {
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', Vary: 'Accept' },
      });
    },
  }),
});
