import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from '@/packages/client/generate';

describe('packages/client/src/schema.d.ts', () => {
  it('is what openapi-typescript makes of the document the app serves (run `npm run client:generate` after an API change)', async () => {
    expect(await readFile(CLIENT_SCHEMA_PATH, 'utf8')).toBe(await clientSchemaSource());
  });
});
