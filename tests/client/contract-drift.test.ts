// The typed client's committed contract (packages/client/openapi.json and src/schema.d.ts) is what
// the /v1 routes declare today: changing a route without `npm run client:generate` fails here, so
// every API change shows in review as a diff of the document.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_DOCUMENT_PATH,
  CLIENT_SCHEMA_PATH,
  clientDocument,
  clientDocumentSource,
  clientSchemaSource,
} from '@/scripts/client-contract';

describe('the committed client contract', () => {
  it('packages/client/openapi.json is the document the app serves, byte for byte', () => {
    expect(readFileSync(CLIENT_DOCUMENT_PATH, 'utf8')).toBe(clientDocumentSource());
  });

  it('packages/client/src/schema.d.ts is what openapi-typescript makes of it', async () => {
    expect(readFileSync(CLIENT_SCHEMA_PATH, 'utf8')).toBe(await clientSchemaSource());
  });

  it('the check can fail: a changed route changes the document', () => {
    const document = clientDocument() as { paths: Record<string, unknown> };
    const changed = { ...document, paths: { ...document.paths, '/v1/not-a-route': {} } };
    expect(`${JSON.stringify(changed, null, 2)}\n`).not.toBe(readFileSync(CLIENT_DOCUMENT_PATH, 'utf8'));
  });
});
