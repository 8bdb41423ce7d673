// GET /.well-known/nostr.json's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { nostrNames } from '@/lib/features/gateways/nostr-names';
import { withApi } from '@/lib/http/handler';
import type { ServicesProvider } from '@/lib/http/services';
import { singleQueryParam } from '@/lib/http/parse';
import { getOnly, publicRead } from '@/lib/http/well-known';

const ROUTE = '/.well-known/nostr.json';

/** `{"names": {"<tag>": "<hex>"}}` for a tag whose owner set a Nostr key; no name otherwise (NIP-05). */
export function nostrJsonHandlers(provide: ServicesProvider) {
  const GET = withApi(
    async (req, { services: { db } }) => {
      const { value, indexedSlot } = await nostrNames(db, singleQueryParam(new URL(req.url).searchParams, 'name'));
      return publicRead(req, value, 'application/json', indexedSlot);
    },
    ROUTE,
    provide,
  );
  return getOnly(ROUTE, GET);
}
