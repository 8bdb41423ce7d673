// GET /v1/openapi.json — the OpenAPI 3.1 document of /v1, built from the routes' declarations
import { openApiRouteDeclaration } from '@/lib/http/openapi-route';
import { getServices } from '@/lib/http/services';
import { v1Handlers } from '@/lib/http/v1-route';
import { v1Routes } from '../v1-routes';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Handlers(
  openApiRouteDeclaration(v1Routes),
  getServices,
);
