'use client';

import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { TAG_MAX_BYTES, INVALID_TAG_MESSAGE, TAG_RULE_IN_WORDS } from '@/lib/core/tag-rules';
import { isPublicKey } from '@/lib/core/base58';
import { CodeField } from '@/components/form/CodeField';
import { useSiteWallet } from '@/components/wallet/site-wallet-context';
import { TransactionSteps } from '@/components/transaction/TransactionSteps';
import { REGISTER_STEP_LABELS } from '@/lib/web/browser/register-flow';
import { RegistrationCost } from './RegistrationCost';
import { useRegistration, type BuildRegistration } from './useRegistration';
import type { CostSettings } from './useRegistrationCost';
import { useTagAvailability, type Availability } from './useTagAvailability';

const AVAILABILITY_TEXT: Record<Availability['state'], string> = {
  empty: `${TAG_RULE_IN_WORDS[0].toUpperCase()}${TAG_RULE_IN_WORDS.slice(1)}.`,
  invalid: `Not a valid tag. ${INVALID_TAG_MESSAGE}`,
  checking: 'Checking…',
  available: 'Available',
  reserved: 'Reserved: this tag cannot be registered.',
  taken: 'Taken: someone already has this tag.',
  lookalike: '',
  error: '',
};

/**
 * The /register form: live availability, an optional payout wallet, then the steps. The page
 * hands it the build action (components import nothing from app/).
 */
export function RegisterFlow({
  sessionKey,
  buildRegistration,
  costSettings,
}: {
  sessionKey: string | null;
  buildRegistration: BuildRegistration;
  costSettings: CostSettings;
}) {
  const { publicKey } = useSiteWallet();
  const [tagInput, setTagInput] = useState('');
  const [payout, setPayout] = useState('');
  const { availability, recheck } = useTagAvailability(tagInput);
  const { state, start, retry, reset, started } = useRegistration(sessionKey, buildRegistration);

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
    start({ tag: availability.tag, payout: payout.trim() });
  }

  const steps = (
    <TransactionSteps
      state={state}
      labels={REGISTER_STEP_LABELS}
      title="Registration steps"
      statusTestId="register-status"
    />
  );

  if (state.status === 'done') {
    const tag = started?.tag ?? '';
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

  const availabilityText =
    availability.state === 'error'
      ? availability.message
      : availability.state === 'lookalike'
        ? availability.warning
        : AVAILABILITY_TEXT[availability.state];
  const availabilityClass =
    availability.state === 'available'
      ? 'ok'
      : ['invalid', 'reserved', 'taken', 'lookalike', 'error'].includes(availability.state)
        ? 'error'
        : 'muted';
  // Shown before anything is signed: the tag is free, but payers could mistake it for another.
  const lookalikeNotice = availability.state === 'available' ? availability.warning : null;

  return (
    <section className="card" aria-labelledby="register-heading">
      <h2 id="register-heading">Choose your tag</h2>
      <form onSubmit={onSubmit} noValidate>
        <CodeField
          label="Tag"
          prefix="@"
          name="tag"
          value={tagInput}
          onChange={setTagInput}
          disabled={running}
          maxLength={TAG_MAX_BYTES + 1}
          aria-invalid={['invalid', 'reserved', 'taken', 'lookalike'].includes(availability.state) || undefined}
          hint={availabilityText}
          status={{ tone: availabilityClass, testId: 'availability' }}
        />
        {lookalikeNotice ? (
          <p className="warn" role="note" data-testid="lookalike-warning">
            {lookalikeNotice}
          </p>
        ) : null}
        <CodeField
          label="Payout wallet (optional)"
          name="wallet"
          className="mono"
          placeholder={sessionKey ?? 'Your signed-in wallet'}
          value={payout}
          onChange={setPayout}
          disabled={running}
          problem={payoutInvalid ? 'Not a Solana address.' : null}
          hint="Where payments to your tag go. Leave empty to use the wallet you sign in with. Another wallet signs the registration too: you switch to it in your wallet when asked."
        />
        <RegistrationCost tag={availability.state === 'available' ? availability.tag : null} settings={costSettings} />
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
                {state.failure.kind === 'another-signer' ? 'Continue' : 'Retry'}
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
