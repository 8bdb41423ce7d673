'use client';

import Link from 'next/link';
import { useId, useState, useTransition, type FormEvent } from 'react';
import {
  PREFERRED_TOKEN_SYMBOLS,
  PROFILE_LIMITS,
  ProfilePatch,
  countChars,
  type EditableProfileKey,
  type Identity,
} from '@/lib/features/identity/schemas';
import type { ActionOutcome } from '@/lib/web/browser/action-outcome';
import {
  profileFieldErrors,
  profilePatch,
  profileValues,
  type ProfileFieldErrors,
} from '@/lib/web/browser/profile-form';
import { actionFailureMessage } from '@/lib/web/shared/request-limits';

/** The settings page's save: a server action on PATCH /v1/identity/{tag}'s code path. */
export type SaveProfile = (tag: string, patch: ReturnType<typeof profilePatch>) => Promise<ActionOutcome<Identity>>;

type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'unchanged' }
  | { kind: 'error'; message: string };

/** One tag's profile: checked with the API's own schema before sending, saved by the page's action. */
export function ProfileForm({ identity, saveProfile }: { identity: Identity; saveProfile: SaveProfile }) {
  const [saved, setSaved] = useState(() => profileValues(identity));
  const [edited, setEdited] = useState(saved);
  const [errors, setErrors] = useState<ProfileFieldErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [pending, startTransition] = useTransition();
  const prefix = useId();
  const tag = identity.tag;

  function set(key: EditableProfileKey, value: string) {
    setEdited((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    setStatus({ kind: 'idle' });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const patch = profilePatch(saved, edited);
    if (Object.keys(patch).length === 0) {
      setStatus({ kind: 'unchanged' });
      return;
    }
    const local = profileFieldErrors(ProfilePatch.safeParse(patch));
    setErrors(local);
    if (Object.keys(local).length > 0) {
      setStatus({ kind: 'error', message: 'Some fields need fixing.' });
      return;
    }
    setStatus({ kind: 'saving' });
    startTransition(async () => {
      let failure = '';
      const result = await saveProfile(tag, patch).catch((err: unknown) => {
        failure = actionFailureMessage(err); // e.g. the form over the actions' body limit
        return null;
      });
      if (!result) {
        setStatus({ kind: 'error', message: failure });
      } else if (result.ok) {
        const values = profileValues(result.data);
        setSaved(values);
        setEdited(values);
        setStatus({ kind: 'saved' });
      } else {
        setStatus({ kind: 'error', message: result.error.message });
      }
    });
  }

  const field = (key: EditableProfileKey) => ({
    id: `${prefix}-${key}`,
    name: key,
    value: edited[key],
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': `${prefix}-${key}-hint`,
  });
  const hint = (key: EditableProfileKey, text: string) => (
    <p id={`${prefix}-${key}-hint`} className={errors[key] ? 'field-error' : 'hint'}>
      {errors[key] ?? text}
    </p>
  );
  const counter = (key: 'displayName' | 'bio') => {
    const n = countChars(edited[key].trim());
    const max = PROFILE_LIMITS[key].maxChars;
    return (
      <span className="counter" data-over={n > max} aria-hidden="true">
        {n}/{max}
      </span>
    );
  };

  return (
    <section className="card" aria-labelledby={`${prefix}-heading`} data-tag={tag}>
      <h2 id={`${prefix}-heading`}>
        <Link href={`/${tag}`}>{tag}</Link>
      </h2>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${prefix}-displayName`}>Display name</label>
          <input
            type="text"
            autoComplete="nickname"
            {...field('displayName')}
            onChange={(e) => set('displayName', e.target.value)}
          />
          {counter('displayName')}
          {hint('displayName', `Up to ${PROFILE_LIMITS.displayName.maxChars} characters. Empty clears it.`)}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-avatar`}>Avatar image URL</label>
          <input
            type="text"
            inputMode="url"
            autoComplete="url"
            className="mono"
            {...field('avatar')}
            onChange={(e) => set('avatar', e.target.value)}
          />
          {hint('avatar', 'An https: address of an image. Empty clears it.')}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-bio`}>Bio</label>
          <textarea rows={4} {...field('bio')} onChange={(e) => set('bio', e.target.value)} />
          {counter('bio')}
          {hint('bio', `Up to ${PROFILE_LIMITS.bio.maxChars} characters. Empty clears it.`)}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-preferredToken`}>Preferred token</label>
          <input
            type="text"
            list={`${prefix}-tokens`}
            autoCapitalize="characters"
            autoComplete="off"
            {...field('preferredToken')}
            onChange={(e) => set('preferredToken', e.target.value)}
          />
          <datalist id={`${prefix}-tokens`}>
            {PREFERRED_TOKEN_SYMBOLS.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          {hint(
            'preferredToken',
            `${PREFERRED_TOKEN_SYMBOLS.join(', ')} or a token mint address. Payment links ask for it.`,
          )}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-nostr`}>Nostr public key</label>
          <input
            type="text"
            autoComplete="off"
            spellCheck={false}
            className="mono"
            {...field('nostr')}
            onChange={(e) => set('nostr', e.target.value)}
          />
          {hint(
            'nostr',
            'Your npub (or its 64 hex digits): Nostr clients then verify you as your tag at this site. Empty clears it.',
          )}
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={pending}>
            {pending ? 'Saving…' : 'Save'}
          </button>
          <p
            className={`status-line ${status.kind === 'error' ? 'error' : 'ok'}`}
            role="status"
            data-testid="save-status"
          >
            {status.kind === 'saved'
              ? 'Saved.'
              : status.kind === 'unchanged'
                ? 'Nothing changed.'
                : status.kind === 'error'
                  ? status.message
                  : ''}
          </p>
        </div>
      </form>
    </section>
  );
}
