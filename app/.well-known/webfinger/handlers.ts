// GET /.well-known/webfinger's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { webfingerJrd } from '@/lib/features/gateways/webfinger';
import { withApi } from '@/lib/http/handler';
import type { ServicesProvider } from '@/lib/http/services';
import { getOnly, publicRead, single } from '@/lib/http/well-known';

const ROUTE = '/.well-known/webfinger';

/** `resource` once (acct:<tag>@<host> or https://<host>/@<tag>), `rel` any number of times (RFC 7033 §4.1). */
export function webfingerHandlers(provide: ServicesProvider) {
  const GET = withApi(
    async (req, { services: { db, config } }) => {
      const params = new URL(req.url).searchParams;
      const resource = single(params, 'resource');
      const { value, indexedSlot } = await webfingerJrd(db, config.appUrl, resource, params.getAll('rel'));
      return publicRead(req, value, 'application/jrd+json', indexedSlot);
    },
    ROUTE,
    provide,
  );
  return getOnly(ROUTE, GET);
}
