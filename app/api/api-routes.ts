// The /api and /.well-known routes whose handlers take their services from the caller (each
// route's handlers.ts): what tests/support/in-process.ts binds to a
// test's own services beside /v1.
// health reads no services and is listed as it is; next-auth runs only inside Next.js.
import type { ServicesProvider } from '@/lib/http/services';
import { nostrJsonHandlers } from '../.well-known/nostr.json/handlers';
import { webfingerHandlers } from '../.well-known/webfinger/handlers';
import { payActionHandlers } from './actions/pay/[tag]/handlers';
import { avatarHandlers } from './avatar/[tag]/handlers';
import { cronRouteHandlers } from '@/lib/http/cron-route';
import { CRON_ROUTES } from '@/lib/core/schedule';
import * as health from './health/route';
import { indexerStatusHandlers } from './indexer/status/handlers';
import { metricsHandlers } from './metrics/handlers';
import { readyHandlers } from './ready/handlers';

export interface ApiRoute {
  /** The path as metrics name it, `{name}` for a segment. */
  path: string;
  /** Its method handlers (GET, POST, …) taking their services from `provide`. */
  handlers(provide: ServicesProvider): object;
}

export function apiRoutes(): ApiRoute[] {
  return [
    { path: '/api/actions/pay/{tag}', handlers: payActionHandlers },
    { path: '/api/avatar/{tag}', handlers: avatarHandlers },
    ...CRON_ROUTES.map(({ path }) => ({
      path,
      handlers: (provide: ServicesProvider) => cronRouteHandlers(path, provide),
    })),
    { path: '/api/health', handlers: () => health },
    { path: '/api/indexer/status', handlers: indexerStatusHandlers },
    { path: '/api/metrics', handlers: metricsHandlers },
    { path: '/api/ready', handlers: readyHandlers },
    { path: '/.well-known/webfinger', handlers: webfingerHandlers },
    { path: '/.well-known/nostr.json', handlers: nostrJsonHandlers },
  ];
}
