import { openDb } from '@/lib/db/client';
import { insertIdentity, randomTag } from '@/devstack/identities';

/** `count` profiles of ordinary size, so the benchmarks read and render what production does. */
export async function seedBenchProfiles(databaseUrl: string, count: number): Promise<string[]> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 4 });
  try {
    const rows = await Promise.all(
      Array.from({ length: count }, () =>
        insertIdentity(db, {
          tag: randomTag(),
          displayName: 'Bench Mark 🏁',
          avatar: 'https://cdn.example.com/avatars/bench.png',
          bio: 'A profile of ordinary size, so the benchmark reads what production reads.',
          preferredToken: 'USDC',
          verified: true,
        }),
      ),
    );
    return rows.map((r) => r.tag);
  } finally {
    await close();
  }
}

export async function seedBenchProfile(databaseUrl: string): Promise<string> {
  return (await seedBenchProfiles(databaseUrl, 1))[0];
}
