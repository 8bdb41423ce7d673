// Identity read benchmark: GET /v1/identity/{tag} (and /v1/resolve) against the trivial route
// of the same build, side by side in one run (issue: identity ≥ 85% of the trivial route).
//   npm run bench -- identity
import { compareRoutes } from './measure';
import { seedBenchProfile } from './seed';

const TARGET = 0.85;


export async function benchIdentity({ appUrl, databaseUrl }: { appUrl: string; databaseUrl: string }) {
  const tag = await seedBenchProfile(databaseUrl);
  const get = (name: string, path: string) => ({ name, load: () => ({ name, url: `${appUrl}${path}` }) });
  const [, identity, resolve] = await compareRoutes({
    title: 'Identity reads (production build, 10 connections)',
    baseline: get('GET /api/health (trivial)', '/api/health'),
    routes: [get('GET /v1/identity/{tag}', `/v1/identity/${tag}`), get('GET /v1/resolve/{tag}', `/v1/resolve/${tag}`)],
    targets: { 'GET /v1/identity/{tag}': TARGET, 'GET /v1/resolve/{tag}': TARGET },
  });
  return { identity, resolve, target: TARGET };
}
