// GET /.well-known/webfinger's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { webfingerJrd } from '@/lib/features/gateways/webfinger';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import { indexedSlotHeaders } from '@/lib/http/indexed-slot';
import { withApi } from '@/lib/http/handler';
import type { ServicesProvider } from '@/lib/http/services';
import { singleQueryParam } from '@/lib/http/parse';
import { getOnly, publicRead } from '@/lib/http/well-known';

const ROUTE = '/.well-known/webfinger';

/** `resource` once (acct:<tag>@<host> or https://<host>/@<tag>), `rel` any number of times (RFC 7033 §4.1). */
export function webfingerHandlers(provide: ServicesProvider) {
  const GET = withApi(
    async (req, { services: { db, config } }) => {
      const url = new URL(req.url);
      const resource = singleQueryParam(url.searchParams, 'resource');
      const hosts = { origin: config.appUrl, requestHost: url.host };
      const { value, indexedSlot } = await webfingerJrd(db, hosts, resource, url.searchParams.getAll('rel'));
      if (!value) throw tagNotFound().withHeaders(indexedSlotHeaders(indexedSlot));
      return publicRead(req, value, 'application/jrd+json', indexedSlot);
    },
    ROUTE,
    provide,
  );
  return getOnly(ROUTE, GET);
}
