'use server';

import { getServices } from '@/lib/api/services';
import { updateProfile, type Identity } from '@/lib/identity';
import { ProfilePatch } from '@/lib/identity/schemas';
import { toActionError, type ActionError } from '@/lib/web/action-result';
import { profileFieldErrors, type ProfileFieldErrors } from '@/lib/web/profile-form';
import { requireSessionKey } from '@/lib/web/session';

export type SaveProfileResult =
  | { ok: true; identity: Identity }
  | { ok: false; error: ActionError; fieldErrors: ProfileFieldErrors };

/**
 * The settings form's save: PATCH /v1/identity/{tag}'s code path (`updateProfile`) for the
 * session's key. The caller comes from the session, never from the form; the tag and the
 * patch are untrusted input, checked again here whatever the form checked.
 */
export async function saveProfile(tag: string, patch: unknown): Promise<SaveProfileResult> {
  try {
    const caller = await requireSessionKey();
    const fieldErrors = profileFieldErrors(ProfilePatch.safeParse(patch));
    if (Object.keys(fieldErrors).length > 0) {
      return { ok: false, error: { code: 'invalid_request', message: 'Some fields need fixing.' }, fieldErrors };
    }
    const { db } = await getServices();
    const identity = await updateProfile(db, { tagInput: String(tag), caller, patch }, new Date());
    return { ok: true, identity };
  } catch (err) {
    return { ok: false, error: toActionError(err), fieldErrors: {} };
  }
}
