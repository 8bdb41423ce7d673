// Integrator benchmark: batch resolve, reverse lookup, a 304, the cached /@tag and the
// change feed, each side by side with the trivial route of the same build.
//   npm run bench -- integrators
import { openDb } from '@/lib/db/client';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { compareRoutes, measure } from './measure';
import { seedBenchProfiles } from './seed';
import { timesToFirstByte } from './web';

const TARGETS = {
  resolveBatch: 0.4,
  reverse: 0.85,
  notModified: 0.95,
  /** /@tag time to first byte, cached, at most this many times the trivial route's. */
  profileTtfb: 1.5,
};
const FEED_PAGE = 1000;
const PROFILE_TTFB_REQUESTS = 500;

/** Change-feed events for the seeded tags: `rounds` × each tag, as the indexer would write them. */
async function seedFeedEvents(databaseUrl: string, tags: string[], rounds: number): Promise<void> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 2 });
  try {
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < tags.length; i += 100) {
        await db.transaction((tx) => recordIdentityChanges(tx, tags.slice(i, i + 100), new Date()));
      }
    }
  } finally {
    await close();
  }
}

export async function benchIntegrators({ appUrl, databaseUrl }: { appUrl: string; databaseUrl: string }) {
  const tags = await seedBenchProfiles(databaseUrl, 500);
  await seedFeedEvents(databaseUrl, tags, Math.ceil(FEED_PAGE / tags.length) + 1);
  const owners: string[] = [];
  for (const tag of tags)
    owners.push(((await (await fetch(`${appUrl}/v1/identity/${tag}`)).json()) as { owner: string }).owner);
  const popular = await fetch(`${appUrl}/v1/identity/${tags[0]}`);
  const etag = popular.headers.get('etag');
  if (!etag) throw new Error('GET /v1/identity answered no ETag');
  await popular.arrayBuffer();

  let nextOwner = 0;
  const get = (name: string, path: string, headers?: Record<string, string>) => ({
    name,
    load: () => ({ name, url: `${appUrl}${path}`, headers }),
  });
  const batch = JSON.stringify({ tags: tags.slice(0, 100) });
  const names = {
    resolveBatch: 'POST /v1/resolve, 100 tags',
    reverse: 'GET /v1/reverse/{address}, 500 addresses',
    notModified: 'GET /v1/identity/{tag} → 304',
    feed: `GET /v1/events, a page of ${FEED_PAGE}`,
  };
  const summaries = await compareRoutes({
    title: 'Integrator reads (production build, 10 connections)',
    baseline: get('GET /api/health (trivial)', '/api/health'),
    routes: [
      {
        name: names.resolveBatch,
        load: () => ({
          name: names.resolveBatch,
          url: `${appUrl}/v1/resolve`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: batch,
        }),
      },
      {
        name: names.reverse,
        load: () => ({
          name: names.reverse,
          url: `${appUrl}/v1/reverse/${owners[0]}`,
          nextPath: () => `/v1/reverse/${owners[nextOwner++ % owners.length]}`,
        }),
      },
      {
        name: names.notModified,
        load: () => ({
          name: names.notModified,
          url: `${appUrl}/v1/identity/${tags[0]}`,
          headers: { 'if-none-match': etag },
          success: '3xx' as const,
        }),
      },
      get(names.feed, `/v1/events?limit=${FEED_PAGE}`),
    ],
    targets: {
      [names.resolveBatch]: TARGETS.resolveBatch,
      [names.reverse]: TARGETS.reverse,
      [names.notModified]: TARGETS.notModified,
    },
  });
  const feed = summaries.find((s) => s.name === names.feed)!;
  console.log(
    `\nchange feed: ${feed.requestsPerSecond.toFixed(0)} pages of ${FEED_PAGE} events/s ≈ ${((feed.requestsPerSecond * FEED_PAGE) / 1000).toFixed(0)}k events/s (p50 ${feed.p50} ms)`,
  );

  // /@tag, rendered per view from one read: time to first byte against the trivial route's.
  const check = await measure({ name: 'profile warm-up', url: `${appUrl}/@${tags[1]}`, amount: 20, connections: 1 });
  if (check.non2xx || check.errors) throw new Error(`/@${tags[1]} did not answer 200`);
  const [trivial, profile] = await timesToFirstByte(appUrl, ['/api/health', `/@${tags[1]}`], PROFILE_TTFB_REQUESTS);
  const ratio = profile.p50Ms / trivial.p50Ms;
  console.log(
    `\n## /@tag time to first byte (${PROFILE_TTFB_REQUESTS} sequential requests each, the two paths taken in turn)`,
  );
  console.log('| path | p50 ms | p99 ms | mean ms |');
  console.log('|---|---:|---:|---:|');
  for (const t of [trivial, profile])
    console.log(`| ${t.path} | ${t.p50Ms.toFixed(2)} | ${t.p99Ms.toFixed(2)} | ${t.meanMs.toFixed(2)} |`);
  console.log(
    `/@tag p50 = ${ratio.toFixed(2)}× the trivial route's (target ≤ ${TARGETS.profileTtfb}×: ${ratio <= TARGETS.profileTtfb ? 'met' : 'NOT MET'})`,
  );
  return { summaries, profileTtfbRatio: ratio };
}
