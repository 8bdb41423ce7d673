// PUT /v1/primary — the caller chooses its primary tag (what reverse lookups answer), or null for the default
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { setPrimaryTag } from '@/lib/integrations/primary-tag';
import { PrimaryTagRequest } from '@/lib/integrations/schemas';

export const PUT = withCors(
  withApi(
    withRateLimit(
      'primary',
      withBearer(async (req, { caller, services: { db } }) => {
        const { tag } = parseWith(PrimaryTagRequest, await readJson(req, 1024));
        return json(await setPrimaryTag(db, { owner: caller, tag }, new Date()));
      }),
    ),
  ),
);

export const OPTIONS = corsPreflight(['PUT']);

export const { GET, HEAD, POST, PATCH, DELETE } = routeMethods({ PUT, OPTIONS });
