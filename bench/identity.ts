// Identity read benchmark: GET /v1/identity/{tag} (and /v1/resolve) against the trivial route
// of the same build, side by side in one run (issue: identity ≥ 85% of the trivial route).
//   npm run bench -- identity
import { randomBytes } from 'node:crypto';
import { openDb } from '@/lib/db/client';
import { identities } from '@/lib/db/schema';
import { compareRoutes } from './measure';

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

export async function benchIdentity({ appUrl, databaseUrl }: { appUrl: string; databaseUrl: string }) {
  const tag = await seedIdentity(databaseUrl);
  const get = (name: string, path: string) => ({ name, load: () => ({ name, url: `${appUrl}${path}` }) });
  const [, identity, resolve] = await compareRoutes({
    title: 'Identity reads (production build, 10 connections)',
    baseline: get('GET /api/health (trivial)', '/api/health'),
    routes: [get('GET /v1/identity/{tag}', `/v1/identity/${tag}`), get('GET /v1/resolve/{tag}', `/v1/resolve/${tag}`)],
    targets: { 'GET /v1/identity/{tag}': TARGET, 'GET /v1/resolve/{tag}': TARGET },
  });
  return { identity, resolve, target: TARGET };
}
