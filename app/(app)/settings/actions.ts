'use server';

import { z } from 'zod';
import { parseWith } from '@/lib/http/parse';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { ProfilePatch } from '@/lib/features/identity/schemas';
import { getChain } from '@/lib/chain/rpc';
import { ownerOnChain } from '@/lib/features/identity/owner-on-chain';
import { keepableToken } from '@/lib/features/identity/keepable-token';
import { updateProfile } from '@/lib/features/identity/update-profile';
import { withAction } from '@/lib/web/server/server-action';

/**
 * The settings form's save: PATCH /v1/identity/{tag}'s code path (the tag and the patch
 * parsed with the API's own schemas, then `updateProfile`) for the session's key. The caller
 * comes from the session, never from the form.
 */
export const saveProfile = withAction(
  {
    args: z.tuple([z.string().max(64), z.record(z.string(), z.unknown())]),
    rateLimit: 'profile',
    callerRateLimit: 'profileKey',
  },
  async ([tag, patch], { caller, services: { db, config }, now }) => {
    const canonical = parseTagParam(tag); // the tag is judged before the patch, as PATCH /v1/identity/{tag} does
    const identity = await updateProfile(
      db,
      { tag: canonical, caller, patch: parseWith(ProfilePatch, patch) },
      now,
      ownerOnChain(getChain(config)),
      keepableToken(getChain(config), config.solana.cluster),
    );
    return identity;
  },
);
