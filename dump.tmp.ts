import { createOpenApiDocument } from './lib/api/openapi';
import { v1Routes } from './app/v1/v1-routes';
console.log(JSON.stringify(createOpenApiDocument(v1Routes(), { serverUrl: 'http://x' })));
