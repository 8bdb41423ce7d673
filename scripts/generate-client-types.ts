// `npm run client:generate`: writes the typed client's committed contract (scripts/client-contract.ts):
// packages/client/openapi.json and packages/client/src/schema.d.ts. Run it after changing a /v1 route;
// tests/client/contract-drift.test.ts fails until then.
import { writeFile } from 'node:fs/promises';
import {
  CLIENT_DOCUMENT_PATH,
  CLIENT_SCHEMA_PATH,
  clientDocumentSource,
  clientSchemaSource,
} from '@/scripts/client-contract';

async function main(): Promise<void> {
  await writeFile(CLIENT_DOCUMENT_PATH, clientDocumentSource());
  await writeFile(CLIENT_SCHEMA_PATH, await clientSchemaSource());
  console.log(`wrote ${CLIENT_DOCUMENT_PATH} and ${CLIENT_SCHEMA_PATH}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
