import { openDb } from '@/lib/db/client';
import { insertIdentity, randomTag } from '@/tests/support/identities';

/** A profile of ordinary size, so the benchmarks read and render what production does. */
export async function seedBenchProfile(databaseUrl: string): Promise<string> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 1 });
  try {
    const row = await insertIdentity(db, {
      tag: randomTag(),
      displayName: 'Bench Mark 🏁',
      avatar: 'https://cdn.example.com/avatars/bench.png',
      bio: 'A profile of ordinary size, so the benchmark reads what production reads.',
      preferredToken: 'USDC',
      verified: true,
    });
    return row.tag;
  } finally {
    await close();
  }
}
