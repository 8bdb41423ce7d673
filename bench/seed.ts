import { openDb } from '@/lib/db/client';
import { insertIdentity, randomTag } from '@/devstack/identities';

const SEED_GROUP = 20;

/** `count` profiles of ordinary size, so the benchmarks read and render what production does. */
export async function seedBenchProfiles(databaseUrl: string, count: number): Promise<string[]> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 4 });
  try {
    // In groups: a thousand inserts queued at once on 4 connections outwait the pool's
    // 3 s acquire deadline on a busy machine.
    const tags: string[] = [];
    for (let done = 0; done < count; done += SEED_GROUP) {
      const rows = await Promise.all(
        Array.from({ length: Math.min(SEED_GROUP, count - done) }, () =>
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
      tags.push(...rows.map((r) => r.tag));
    }
    return tags;
  } finally {
    await close();
  }
}

export async function seedBenchProfile(databaseUrl: string): Promise<string> {
  return (await seedBenchProfiles(databaseUrl, 1))[0];
}
