// `npm run bench`: every benchmark, printed (not timed tests). Starts a real PostgreSQL, a
// localnet and the production build (run `npm run build` first), then measures each
// section side by side with the trivial route of the same build.
//   npm run bench               all sections
//   npm run bench -- auth web   only these
import { existsSync } from 'node:fs';
import path from 'node:path';
import { migratePostgres } from '@/lib/db/client';
import { hasProductionBuild, startApp } from '@/tests/support/app';
import { startPostgres } from '@/tests/support/postgres';
import { startServiceProcess } from '@/tests/support/service-process';

const LOAD_GENERATOR_NICENESS = 10;

type Section = (ctx: { appUrl: string; databaseUrl: string; rpcUrl: string }) => Promise<unknown>;

const SECTIONS: Record<string, { file: string; run: (mod: Record<string, unknown>) => Section }> = {
  auth: { file: 'auth.ts', run: (m) => (ctx) => (m.benchAuth as Section)(ctx) },
  identity: { file: 'identity.ts', run: (m) => (ctx) => (m.benchIdentity as Section)(ctx) },
  web: { file: 'web.ts', run: (m) => (ctx) => (m.benchWeb as Section)(ctx) },
  indexer: { file: 'indexer.ts', run: (m) => (ctx) => (m.benchIndexer as Section)(ctx) },
  program: { file: 'program-cu.ts', run: (m) => async () => (m.benchProgram as () => unknown)() },
  localnet: { file: 'localnet.ts', run: (m) => () => (m.benchLocalnet as () => Promise<unknown>)() },
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => a in SECTIONS);
  const names = wanted.length ? wanted : Object.keys(SECTIONS);
  if (!hasProductionBuild()) throw new Error('No production build: run `npm run build` first.');
  const pg = await startPostgres();
  await migratePostgres(pg.url);
  const localnet = await startServiceProcess('tests/support/localnet-process.ts');
  const app = await startApp({
    DATABASE_URL: pg.url,
    SOLANA_RPC_URL: localnet.url,
    AUTH_RATE_LIMIT: '100000000',
    SYNC_RATE_LIMIT: '100000000',
    REGISTER_RATE_LIMIT: '100000000',
    AVAILABILITY_RATE_LIMIT: '100000000',
  });
  // The load generator (autocannon, in this process) yields to the server and PostgreSQL
  // when they want the same cores: on a real deployment it would be another machine.
  (await import('node:os')).setPriority(LOAD_GENERATOR_NICENESS);
  console.log(`# Benchmarks — ${new Date().toISOString()}, ${(await import('node:os')).cpus().length} cores, Node ${process.version}`);
  try {
    for (const name of names) {
      const section = SECTIONS[name];
      const file = path.join(import.meta.dirname, section.file);
      if (!existsSync(file)) {
        console.log(`\n## ${name}: not available (${section.file} missing)`);
        continue;
      }
      const mod = (await import(file)) as Record<string, unknown>;
      await section.run(mod)({ appUrl: app.url, databaseUrl: pg.url, rpcUrl: localnet.url });
    }
  } finally {
    await app.stop();
    await localnet.close();
    await pg.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
