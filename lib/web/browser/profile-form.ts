import 'client-only';
import type { z } from 'zod';
import { EDITABLE_PROFILE_KEYS, type EditableProfileKey } from '@/lib/features/identity/schemas';

export type ProfileFieldErrors = Partial<Record<EditableProfileKey, string>>;
export type ProfileValues = Record<EditableProfileKey, string>;

/** The form's text for each editable field (a cleared field is an empty box). */
export function profileValues(identity: Partial<Record<EditableProfileKey, string | null>>): ProfileValues {
  const out = {} as ProfileValues;
  for (const key of EDITABLE_PROFILE_KEYS) out[key] = identity[key] ?? '';
  return out;
}

/**
 * The patch to send: only the fields that changed, an emptied field as `null` (cleared),
 * so a save never rewrites a field someone else changed meanwhile.
 */
export function profilePatch(
  saved: ProfileValues,
  edited: ProfileValues,
): Partial<Record<EditableProfileKey, string | null>> {
  const patch: Partial<Record<EditableProfileKey, string | null>> = {};
  for (const key of EDITABLE_PROFILE_KEYS) {
    if (edited[key] === saved[key]) continue;
    patch[key] = edited[key].trim() === '' ? null : edited[key];
  }
  return patch;
}

/** The first message per field of a ProfilePatch parse, for showing next to each input. */
export function profileFieldErrors(result: z.ZodSafeParseResult<unknown>): ProfileFieldErrors {
  const errors: ProfileFieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && (EDITABLE_PROFILE_KEYS as readonly string[]).includes(key)) {
      errors[key as EditableProfileKey] ??= capitalize(issue.message);
    }
  }
  return errors;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
