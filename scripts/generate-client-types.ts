// `npm run client:generate`: writes packages/client/src/schema.d.ts, the typed client's view of
// /v1, from the same OpenAPI document GET /v1/openapi.json serves. A build output, not committed:
// `npm run build`, `npm run typecheck` and `npm test` run this first (tsc and `next build` read it).
import { writeFile } from 'node:fs/promises';
import { clientSchemaSource, CLIENT_SCHEMA_PATH } from '@/packages/client/generate';

async function main(): Promise<void> {
  await writeFile(CLIENT_SCHEMA_PATH, await clientSchemaSource());
  console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
