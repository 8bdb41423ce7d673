'use client';

import { useId, useState, type FormEvent, type ReactNode } from 'react';
import Link from 'next/link';
import { isZeroKey, type LifecycleCall } from '@/lib/features/lifecycle/schemas';
import { isPublicKey } from '@/lib/core/base58';
import { CodeField } from '@/components/form/CodeField';
import { confirmsRelease } from '@/lib/web/browser/lifecycle-flow';
import { RELEASE_HINT } from '@/lib/web/shared/release-words';
import { LifecycleProgress } from './LifecycleProgress';
import { useLifecycleAction, type BuildLifecycle } from './useLifecycleAction';

export interface OwnedTag {
  /** Canonical, without `@`. */
  tag: string;
  wallet: string;
  /** The key a standing offer names, or null. */
  pendingOwner: string | null;
}

/** What a typed address is: nothing yet, a usable key, or why not (`current` would change nothing). */
function keyProblem(text: string, current: { key: string; why: string }): string | null {
  const key = text.trim();
  if (key === '') return null;
  if (!isPublicKey(key)) return 'Not a Solana address.';
  if (isZeroKey(key)) return 'The zero address cannot hold anything.';
  if (key === current.key) return current.why;
  return null;
}

/** What a form that sends one address says: its field, its hint, its button. */
interface AddressFormWords {
  label: string;
  hint: string;
  submitLabel: string;
  /** Why the address the tag already has there (its wallet, its owner) is refused. */
  unchanged: string;
}

const CHANGE_WALLET: AddressFormWords = {
  label: 'New payout wallet',
  hint: 'Your wallet signs the change; payment apps see the new wallet at once.',
  submitLabel: 'Change wallet',
  unchanged: 'This is already the payout wallet.',
};

const OFFER_TAG: AddressFormWords = {
  label: 'Offer to',
  hint: 'The address becomes the owner only when it accepts; you can cancel until then. On accept, payments go to the new owner.',
  submitLabel: 'Offer the tag',
  unchanged: 'The tag is already yours; offer it to another address.',
};

/**
 * A form that sends one typed address (trimmed): what `children` say, the field, then the
 * button, which waits for a usable key other than `current`. While an action runs,
 * submitting does nothing.
 */
function AddressForm({
  words,
  current,
  busy,
  onSend,
  children,
}: {
  words: AddressFormWords;
  current: string;
  busy: boolean;
  onSend: (key: string) => void;
  children?: ReactNode;
}) {
  const [value, setValue] = useState('');
  const problem = keyProblem(value, { key: current, why: words.unchanged });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) onSend(value.trim());
  }
  return (
    <form onSubmit={submit} noValidate>
      {children}
      <CodeField
        label={words.label}
        className="mono"
        value={value}
        onChange={setValue}
        problem={problem}
        hint={words.hint}
      />
      <div className="actions">
        <button type="submit" className="button" disabled={busy || value.trim() === '' || problem !== null}>
          {words.submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * The on-chain side of one owned tag: change the payout wallet; offer the tag to
 * an address, see the offer pending, cancel it; release the tag after typing it out. Each
 * action runs the transaction steps (sign, send, confirm, live) and then shows the page afresh.
 */
export function TagLifecycle({
  owned,
  sessionKey,
  buildLifecycle,
}: {
  owned: OwnedTag;
  sessionKey: string;
  buildLifecycle: BuildLifecycle;
}) {
  const action = useLifecycleAction(sessionKey, buildLifecycle);
  const [confirmation, setConfirmation] = useState('');
  const id = useId();
  const { tag } = owned;
  const busy = action.state.status === 'running';
  const send = (call: LifecycleCall) => action.start({ tag, call });
  const releaseReady = confirmsRelease(confirmation, tag);

  function submit(event: FormEvent, run: () => void) {
    event.preventDefault();
    if (!busy) run();
  }

  return (
    <section className="card lifecycle" aria-labelledby={`${id}-heading`} data-lifecycle={`@${tag}`}>
      <h2 id={`${id}-heading`}>@{tag} on chain</h2>
      <p>
        <Link href={`/charge/${tag}`} data-testid="till-link">
          Open the till for @{tag}
        </Link>
        : a payment request with a QR code, for a customer in front of you.
      </p>

      <AddressForm
        words={CHANGE_WALLET}
        current={owned.wallet}
        busy={busy}
        onSend={(wallet) => send({ kind: 'set_wallet', wallet })}
      >
        <p>
          Payments to @{tag} go to{' '}
          <span className="mono" data-testid="current-wallet">
            {owned.wallet}
          </span>
          .
        </p>
      </AddressForm>

      {owned.pendingOwner ? (
        <div className="field">
          <p data-testid="pending-offer">
            Offered to <span className="mono">{owned.pendingOwner}</span>: pending until that address accepts.
          </p>
          <div className="actions">
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => send({ kind: 'cancel_transfer' })}
            >
              Cancel the offer
            </button>
          </div>
        </div>
      ) : (
        <AddressForm
          words={OFFER_TAG}
          current={sessionKey}
          busy={busy}
          onSend={(newOwner) => send({ kind: 'offer_transfer', newOwner })}
        />
      )}

      <form onSubmit={(e) => submit(e, () => releaseReady && send({ kind: 'release_tag' }))} noValidate>
        <CodeField
          label={`Type @${tag} to release it`}
          value={confirmation}
          onChange={setConfirmation}
          hint={RELEASE_HINT}
        />
        <div className="actions">
          <button type="submit" className="button secondary" disabled={busy || !releaseReady}>
            Release @{tag}
          </button>
        </div>
      </form>

      <LifecycleProgress action={action} />
    </section>
  );
}
