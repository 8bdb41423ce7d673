// GET /v1/identity/{tag} — the public identity (SPEC 4.3); PATCH — the owner edits its profile (SPEC 4.4)
import { conditionalJson } from '@/lib/api/conditional';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { json, withApi, withBearer } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { afterIdentityChanges } from '@/lib/feed/identity-changes';
import { getIdentityAtSlot, parseTagParam } from '@/lib/identity/get-identity';
import { indexedSlotHeaders } from '@/lib/indexer/indexed-slot';
import { ProfilePatch } from '@/lib/identity/schemas';
import { updateProfile } from '@/lib/identity/update-profile';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(async (req, { params, services: { db } }) => {
    const { tag } = params;
    const { value, indexedSlot } = await getIdentityAtSlot(db, tag);
    return conditionalJson(req, value, { cacheControl: PUBLIC_READ_CACHE_CONTROL, headers: indexedSlotHeaders(indexedSlot) });
  }),
);

export const PATCH = withCors(
  withApi<TagRoute>(
    withBearer(async (req, { params, caller, services: { db } }) => {
      const { tag } = params;
      const canonical = parseTagParam(tag); // SPEC 4.4 rule 4: the tag's format is judged before the body is read
      const patch = parseWith(ProfilePatch, await readJson(req));
      const identity = await updateProfile(db, { tag: canonical, caller, patch }, new Date());
      await afterIdentityChanges([canonical]); // the next /@tag view shows the change
      return json(identity);
    }),
  ),
);

export const OPTIONS = corsPreflight(['GET', 'PATCH']);

export const { POST, PUT, DELETE } = routeMethods({ GET, PATCH, OPTIONS });
