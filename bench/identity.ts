// Identity read benchmark: GET /v1/identity/{tag} (and /v1/resolve) against the trivial route
// of the same build, side by side in one run (target: identity ≥ 85% of the trivial route).
//   npm run bench -- identity
import { compareRoutes } from './measure';
import { seedBenchProfiles } from './seed';

const TARGET = 0.85;

export async function benchIdentity({ appUrl, databaseUrl }: { appUrl: string; databaseUrl: string }) {
  const tags = await seedBenchProfiles(databaseUrl, 500);
  let next = 0;
  const get = (name: string, path: string) => ({ name, load: () => ({ name, url: `${appUrl}${path}` }) });
  const [, identity, spread, resolve] = await compareRoutes({
    title: 'Identity reads (production build, 10 connections)',
    baseline: get('GET /api/health (trivial)', '/api/health'),
    routes: [
      // one popular tag: concurrent reads of it share one query in flight
      get('GET /v1/identity/{tag}, one tag', `/v1/identity/${tags[0]}`),
      // 500 tags in turn: every request its own query
      {
        name: 'GET /v1/identity/{tag}, 500 tags',
        load: () => ({
          name: 'spread',
          url: `${appUrl}/v1/identity/${tags[0]}`,
          nextPath: () => `/v1/identity/${tags[next++ % tags.length]}`,
        }),
      },
      get('GET /v1/resolve/{tag}, one tag', `/v1/resolve/${tags[0]}`),
    ],
    targets: {
      'GET /v1/identity/{tag}, one tag': TARGET,
      'GET /v1/identity/{tag}, 500 tags': TARGET,
      'GET /v1/resolve/{tag}, one tag': TARGET,
    },
  });
  return { identity, spread, resolve, target: TARGET };
}
