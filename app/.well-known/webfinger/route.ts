// GET /.well-known/webfinger?resource=acct:<tag>@<host> — WebFinger (RFC 7033): how the fediverse finds @tag
import { getServices } from '@/lib/http/services';
import { webfingerHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = webfingerHandlers(getServices);
