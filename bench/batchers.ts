// Group commit (lib/db/batch.ts) measured where it is used: each route below reaches exactly
// one batcher, served by two instances on the same database, A (this build) and B (another
// build or environment: the variant without the batcher), in alternating rounds.
//   BENCH_B_DIST=<build folder> BENCH_B_ENV='{"NAME":"value"}' npm run bench -- batchers
// B runs the build in BENCH_B_DIST (default: the same as A) with BENCH_B_ENV added.
import { startApp } from '@/devstack/app';
import type { Stack } from '@/devstack/stack';
import { BENCH_APP_ENV } from './app-env';
import { comparePairs, type LoadSpec } from './measure';
import { seedBenchProfiles } from './seed';

const ROUNDS = 8;

export async function benchBatchers({ appUrl, databaseUrl, rpcUrl }: Stack) {
  const tags = await seedBenchProfiles(databaseUrl, 500);
  const owners: string[] = [];
  for (const tag of tags)
    owners.push(((await (await fetch(`${appUrl}/v1/identity/${tag}`)).json()) as { owner: string }).owner);
  const b = await startApp({
    ...BENCH_APP_ENV,
    DATABASE_URL: databaseUrl,
    SOLANA_RPC_URL: rpcUrl,
    ...(process.env.BENCH_B_DIST && { NEXT_DIST_DIR: process.env.BENCH_B_DIST }),
    ...(JSON.parse(process.env.BENCH_B_ENV || '{}') as Record<string, string>),
  });
  try {
    let next = 0;
    const spread = (path: (i: number) => string) => (url: string) => (): LoadSpec => ({
      name: 'spread',
      url: `${url}${path(0)}`,
      nextPath: () => path(next++),
    });
    const reverseBody = (i: number) => JSON.stringify({ addresses: [owners[i % owners.length]] });
    const routes: { name: string; load: (url: string) => () => LoadSpec }[] = [
      // the measured two, as a check that this bench sees what the earlier one saw
      {
        name: 'GET /v1/identity/{tag}, 500 tags (identity read)',
        load: spread((i) => `/v1/identity/${tags[i % tags.length]}`),
      },
      {
        name: 'POST /v1/auth/challenge (nonce store)',
        load: (url) => () => ({
          name: 'challenge',
          url: `${url}/v1/auth/challenge`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pubkey: owners[0] }),
        }),
      },
      {
        name: 'GET /v1/identity/{tag}/signals, 500 tags (signals)',
        load: spread((i) => `/v1/identity/${tags[i % tags.length]}/signals`),
      },
      {
        name: 'GET /v1/reverse/{address}, 500 addresses (reverse lookup)',
        load: spread((i) => `/v1/reverse/${owners[i % owners.length]}`),
      },
      {
        name: 'GET /v1/identity/{tag}/transfer, 500 tags (indexed slot)',
        load: spread((i) => `/v1/identity/${tags[i % tags.length]}/transfer`),
      },
      {
        name: 'POST /v1/reverse, one address (rate-limit count)',
        load: (url) => () => ({
          name: 'count',
          url: `${url}/v1/reverse`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: reverseBody(0),
          nextBody: () => reverseBody(next++),
        }),
      },
    ];
    return await comparePairs({
      title: 'Group commit per call site (production build, 10 connections): A this build, B the variant',
      labels: ['A', 'B'],
      rounds: ROUNDS,
      pairs: routes.map((route) => ({ name: route.name, a: route.load(appUrl), b: route.load(b.url) })),
    });
  } finally {
    await b.stop();
  }
}
