'use client';

import { useWallet } from '@solana/wallet-adapter-react';
import Link from 'next/link';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { TAG_MAX_BYTES, INVALID_TAG_MESSAGE, TAG_RULE_IN_WORDS } from '@/lib/identity/tag';
import { isPublicKey } from '@/lib/solana/keys';
import { TransactionSteps } from '@/components/transaction/TransactionSteps';
import { REGISTER_STEP_LABELS } from '@/lib/web/register-flow';
import { useRegistration, type BuildRegistration } from './useRegistration';
import { useTagAvailability, type Availability } from './useTagAvailability';

/** A tag and an address are codes, not prose: the browser must not capitalise, correct or complete them. */
const NOT_PROSE = { autoCapitalize: 'none', autoCorrect: 'off', autoComplete: 'off', spellCheck: false } as const;

const AVAILABILITY_TEXT: Record<Availability['state'], string> = {
  empty: `${TAG_RULE_IN_WORDS[0].toUpperCase()}${TAG_RULE_IN_WORDS.slice(1)}.`,
  invalid: `Not a valid tag. ${INVALID_TAG_MESSAGE}`,
  checking: 'Checking…',
  available: 'Available',
  reserved: 'Reserved: this tag cannot be registered.',
  taken: 'Taken: someone already has this tag.',
  error: '',
};

/**
 * The /register form: live availability, an optional payout wallet, then the steps. The page
 * hands it the build action (components import nothing from app/).
 */
export function RegisterFlow({ sessionKey, buildRegistration }: { sessionKey: string | null; buildRegistration: BuildRegistration }) {
  const { publicKey } = useWallet();
  const [tagInput, setTagInput] = useState('');
  const [payout, setPayout] = useState('');
  const { availability, recheck } = useTagAvailability(tagInput);
  const { state, start, retry, reset, tag: registeredTag } = useRegistration(sessionKey, buildRegistration);
  const ids = { tag: useId(), tagHint: useId(), payout: useId(), payoutHint: useId() };

  const failedKind = state.status === 'failed' ? state.failure.kind : null;
  // Someone took the tag meanwhile: the availability line says so again.
  useEffect(() => {
    if (failedKind === 'conflict') recheck();
  }, [failedKind, recheck]);

  const running = state.status === 'running';
  const payoutInvalid = payout.trim() !== '' && !isPublicKey(payout.trim());
  const walletMatches = !!publicKey && publicKey.toBase58() === sessionKey;
  const blocker = !sessionKey
    ? 'Sign in with your wallet first.'
    : !walletMatches
      ? 'Connect the wallet you signed in with.'
      : availability.state !== 'available'
        ? null
        : payoutInvalid
          ? 'Fix the payout wallet first.'
          : null;
  const canSubmit = !running && state.status !== 'done' && availability.state === 'available' && !blocker;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit || availability.state !== 'available') return;
    start(availability.tag, payout.trim());
  }

  const steps = <TransactionSteps state={state} labels={REGISTER_STEP_LABELS} title="Registration steps" statusTestId="register-status" />;

  if (state.status === 'done') {
    const tag = registeredTag ?? '';
    return (
      <section className="card" aria-labelledby="done-heading">
        {steps}
        <h2 id="done-heading">@{tag} is yours</h2>
        <p>Your public page is live.</p>
        <p className="actions">
          <Link className="button" href={`/@${tag}`}>
            View @{tag}
          </Link>
          <Link className="button secondary" href="/settings">
            Edit your profile
          </Link>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setTagInput('');
              reset();
            }}
          >
            Register another
          </button>
        </p>
      </section>
    );
  }

  const availabilityText = availability.state === 'error' ? availability.message : AVAILABILITY_TEXT[availability.state];
  const availabilityClass =
    availability.state === 'available' ? 'ok' : ['invalid', 'reserved', 'taken', 'error'].includes(availability.state) ? 'error' : 'muted';

  return (
    <section className="card" aria-labelledby="register-heading">
      <h2 id="register-heading">Choose your tag</h2>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={ids.tag}>Tag</label>
          <div className="input-prefix">
            <span aria-hidden="true">@</span>
            <input
              id={ids.tag}
              name="tag"
              type="text"
              value={tagInput}
              onChange={(e) => setTagInput(e.target.value)}
              disabled={running}
              maxLength={TAG_MAX_BYTES + 1}
              {...NOT_PROSE}
              aria-describedby={ids.tagHint}
              aria-invalid={['invalid', 'reserved', 'taken'].includes(availability.state) || undefined}
            />
          </div>
          <p id={ids.tagHint} className={`status-line ${availabilityClass}`} aria-live="polite" data-testid="availability">
            {availabilityText}
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.payout}>Payout wallet (optional)</label>
          <input
            id={ids.payout}
            name="wallet"
            type="text"
            value={payout}
            onChange={(e) => setPayout(e.target.value)}
            disabled={running}
            {...NOT_PROSE}
            className="mono"
            placeholder={sessionKey ?? 'Your signed-in wallet'}
            aria-describedby={ids.payoutHint}
            aria-invalid={payoutInvalid || undefined}
          />
          <p id={ids.payoutHint} className={payoutInvalid ? 'field-error' : 'hint'}>
            {payoutInvalid
              ? 'Not a Solana address.'
              : 'Where payments to your tag go. Leave empty to use the wallet you sign in with.'}
          </p>
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={!canSubmit}>
            {'tag' in availability ? `Register @${availability.tag}` : 'Register'}
          </button>
          {blocker ? <span className="muted">{blocker}</span> : null}
        </div>
      </form>
      {state.status !== 'idle' ? steps : null}
      {state.status === 'failed' ? (
        <div role="alert" className="card">
          <p className="error" data-testid="register-error">
            {state.failure.message}
          </p>
          <div className="actions">
            {state.retryAt ? (
              <button type="button" className="button" onClick={retry}>
                Retry
              </button>
            ) : null}
            <button type="button" className="button secondary" onClick={reset}>
              {state.retryAt ? 'Start over' : 'Choose another tag'}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
