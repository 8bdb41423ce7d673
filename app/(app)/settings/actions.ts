'use server';

import { z } from 'zod';
import { parseWith } from '@/lib/api/parse';
import { parseTagParam } from '@/lib/identity/get-identity';
import { ProfilePatch } from '@/lib/identity/schemas';
import { getChain } from '@/lib/chain/rpc';
import { ownerOnChain } from '@/lib/identity/owner-on-chain';
import { updateProfile } from '@/lib/identity/update-profile';
import { withAction } from '@/lib/web/server/server-action';

/**
 * The settings form's save: PATCH /v1/identity/{tag}'s code path (the tag and the patch
 * parsed with the API's own schemas, then `updateProfile`) for the session's key. The caller
 * comes from the session, never from the form.
 */
export const saveProfile = withAction(
  { args: z.tuple([z.string().max(64), z.record(z.string(), z.unknown())]), rateLimit: 'profile', callerRateLimit: 'profileKey' },
  async ([tag, patch], { caller, services: { db, config }, now }) => {
    const canonical = parseTagParam(tag); // the tag is judged before the patch, as PATCH /v1/identity/{tag} does
    const identity = await updateProfile(db, { tag: canonical, caller, patch: parseWith(ProfilePatch, patch) }, now, ownerOnChain(getChain(config)));
    return identity;
  },
);
