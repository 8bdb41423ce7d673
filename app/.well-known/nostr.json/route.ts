// GET /.well-known/nostr.json?name=<tag> — NIP-05: the Nostr key a tag's owner set
import { getServices } from '@/lib/http/services';
import { nostrJsonHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = nostrJsonHandlers(getServices);
