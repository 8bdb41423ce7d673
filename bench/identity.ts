// Identity read benchmark: GET /v1/identity/{tag} (and /v1/resolve) against the trivial route
// of the same build, side by side in one run (issue: identity ≥ 85% of the trivial route).
//   npm run bench -- identity
import { randomBytes } from 'node:crypto';
import { openDb } from '@/lib/db/client';
import { identities } from '@/lib/db/schema';
import { measure, printComparison, type LoadResult } from './measure';

const TARGET = 0.85;

/** A realistic profile, so the answer is the size real ones are. */
async function seedIdentity(databaseUrl: string): Promise<string> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 1 });
  const tag = `bench_${randomBytes(5).toString('hex')}`;
  const owner = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
  try {
    await db.insert(identities).values({
      tag,
      owner,
      wallet: owner,
      displayName: 'Bench Mark 🏁',
      avatar: 'https://cdn.example.com/avatars/bench.png',
      bio: 'A profile of ordinary size, so the benchmark reads what production reads.',
      preferredToken: 'USDC',
      createdAt: new Date(),
      signature: randomBytes(32).toString('hex'),
      slot: 1n,
    });
  } finally {
    await close();
  }
  return tag;
}

function assertClean(r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
}

export async function benchIdentity({
  appUrl,
  databaseUrl,
  durationSeconds = 5,
  connections = 10,
}: {
  appUrl: string;
  databaseUrl: string;
  durationSeconds?: number;
  connections?: number;
}) {
  const tag = await seedIdentity(databaseUrl);
  const routes = {
    trivial: { name: 'GET /api/health (trivial)', url: `${appUrl}/api/health` },
    identity: { name: 'GET /v1/identity/{tag}', url: `${appUrl}/v1/identity/${tag}` },
    resolve: { name: 'GET /v1/resolve/{tag}', url: `${appUrl}/v1/resolve/${tag}` },
  };
  // warm-up: JIT, the connection pool, each connection's prepared statement
  for (const route of Object.values(routes)) await measure({ ...route, connections, durationSeconds: 1 });

  const rounds: Record<keyof typeof routes, LoadResult>[] = [];
  for (let round = 0; round < 2; round++) {
    const trivial = await measure({ ...routes.trivial, connections, durationSeconds });
    const identity = await measure({ ...routes.identity, connections, durationSeconds });
    const resolve = await measure({ ...routes.resolve, connections, durationSeconds });
    for (const r of [trivial, identity, resolve]) assertClean(r);
    rounds.push({ trivial, identity, resolve });
  }
  // the better of two alternating rounds for each route, so one noisy moment does not decide a ratio
  const best = (key: keyof typeof routes) => rounds.map((r) => r[key]).sort((a, b) => b.requestsPerSecond - a.requestsPerSecond)[0];
  const trivial = best('trivial');
  const identity = best('identity');
  const resolve = best('resolve');
  printComparison(`Identity reads (production build, ${connections} connections, ${durationSeconds} s × 2 rounds)`, trivial, [identity, resolve], {
    [routes.identity.name]: TARGET,
    [routes.resolve.name]: TARGET,
  });
  const ratio = identity.requestsPerSecond / trivial.requestsPerSecond;
  console.log(`identity / trivial = ${(ratio * 100).toFixed(1)}% (target ≥ ${TARGET * 100}%)${ratio >= TARGET ? '' : ' — BELOW TARGET'}`);
  return { trivial, identity, resolve, ratio, target: TARGET };
}
