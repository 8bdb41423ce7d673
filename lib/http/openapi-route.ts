import { z } from 'zod';
import { AppError } from '@/lib/core/errors';
import { acceptsJson } from './accepts-json';
import { ok } from './docs';
import { createOpenApiDocument } from './openapi';
import { v1Operation, type V1RouteDeclaration } from './v1-route';

/**
 * GET /v1/openapi.json's declaration: the document of `routes()`, itself among them. Built here
 * from a getter, so the list of routes (app/v1/v1-routes.ts) and the route file
 * (app/v1/openapi.json/route.ts) each take it without importing each other.
 */
export function openApiRouteDeclaration(routes: () => readonly V1RouteDeclaration[]): V1RouteDeclaration {
  let body: string | undefined;
  return {
    path: '/v1/openapi.json',
    operations: {
      GET: v1Operation({
        operationId: 'getOpenApiDocument',
        tags: ['meta'],
        summary: 'This OpenAPI 3.1 document',
        responses: {
          200: ok(
            'The document',
            z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
          ),
        },
        errors: { 406: 'The request’s `Accept` excludes `application/json`, the only form of the document' },
        handler: async (req, { services: { config } }) => {
          if (!acceptsJson(req.headers.get('accept'))) {
            throw new AppError('not_acceptable', 'This document is served as application/json only.');
          }
          body ??= JSON.stringify(createOpenApiDocument(routes(), { serverUrl: config.appUrl.origin }));
          return new Response(body, {
            headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', Vary: 'Accept' },
          });
        },
      }),
    },
  };
}
