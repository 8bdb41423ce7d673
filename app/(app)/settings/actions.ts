'use server';

import { z } from 'zod';
import { afterIdentityChanges } from '@/lib/feed/identity-changes';
import { parseTagParam, updateProfile } from '@/lib/identity';
import { withAction } from '@/lib/web/server-action';

/**
 * The settings form's save: PATCH /v1/identity/{tag}'s code path (`updateProfile`, which
 * checks the tag and the patch with the API's own schemas) for the session's key. The caller
 * comes from the session, never from the form.
 */
export const saveProfile = withAction(
  { args: z.tuple([z.string().max(64), z.record(z.string(), z.unknown())]) },
  async ([tag, patch], { caller, services: { db }, now }) => {
    const identity = await updateProfile(db, { tagInput: tag, caller, patch }, now);
    await afterIdentityChanges([parseTagParam(identity.tag)]); // the next /@tag view shows the change
    return identity;
  },
);
