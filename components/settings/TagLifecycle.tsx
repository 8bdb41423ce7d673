'use client';

import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { isZeroKey } from '@/lib/lifecycle/schemas';
import { isPublicKey } from '@/lib/solana/keys';
import { confirmsRelease } from '@/lib/web/lifecycle-flow';
import { LifecycleProgress } from './LifecycleProgress';
import { useLifecycleAction, type BuildLifecycle } from './useLifecycleAction';

export interface OwnedTag {
  /** Canonical, without `@`. */
  tag: string;
  wallet: string;
  /** The key a standing offer names, or null. */
  pendingOwner: string | null;
}

/** What a typed address is: nothing yet, a usable key, or why not. */
function keyProblem(text: string, notThis?: { key: string; why: string }): string | null {
  const key = text.trim();
  if (key === '') return null;
  if (!isPublicKey(key)) return 'Not a Solana address.';
  if (isZeroKey(key)) return 'The zero address cannot hold anything.';
  if (notThis && key === notThis.key) return notThis.why;
  return null;
}

interface AddressFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  hint: string;
}

/** A field for a Solana address; the problem with what was typed, when there is one, stands in for the hint. */
function AddressField({ id, label, value, onChange, problem, hint }: AddressFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        className="mono"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className={problem ? 'field-error' : 'hint'}>
        {problem ?? hint}
      </p>
    </div>
  );
}

/**
 * A form that sends one typed address (trimmed): what `children` say, the field, then the
 * button, which waits for a usable key. While an action runs, submitting does nothing.
 */
function AddressForm({
  submitLabel,
  busy,
  onSend,
  children,
  ...field
}: AddressFieldProps & { submitLabel: string; busy: boolean; onSend: (key: string) => void; children?: ReactNode }) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) onSend(field.value.trim());
  }
  return (
    <form onSubmit={submit} noValidate>
      {children}
      <AddressField {...field} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy || field.value.trim() === '' || field.problem !== null}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * The on-chain side of one owned tag (issue 12): change the payout wallet; offer the tag to
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
  const [wallet, setWallet] = useState('');
  const [newOwner, setNewOwner] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const id = useId();
  const { tag } = owned;
  const busy = action.state.status === 'running';

  const walletProblem = keyProblem(wallet, { key: owned.wallet, why: 'This is already the payout wallet.' });
  const ownerProblem = keyProblem(newOwner, { key: sessionKey, why: 'The tag is already yours; offer it to another address.' });
  const releaseReady = confirmsRelease(confirmation, tag);

  function submit(event: FormEvent, run: () => void) {
    event.preventDefault();
    if (!busy) run();
  }

  return (
    <section className="card lifecycle" aria-labelledby={`${id}-heading`} data-lifecycle={`@${tag}`}>
      <h2 id={`${id}-heading`}>@{tag} on chain</h2>

      <AddressForm
        id={`${id}-wallet`}
        label="New payout wallet"
        value={wallet}
        onChange={setWallet}
        problem={walletProblem}
        hint="Your wallet signs the change; payment apps see the new wallet at once."
        submitLabel="Change wallet"
        busy={busy}
        onSend={(key) => action.run(tag, { kind: 'set_wallet', wallet: key })}
      >
        <p>
          Payments to @{tag} go to <span className="mono" data-testid="current-wallet">{owned.wallet}</span>.
        </p>
      </AddressForm>

      {owned.pendingOwner ? (
        <div className="field">
          <p data-testid="pending-offer">
            Offered to <span className="mono">{owned.pendingOwner}</span>: pending until that address accepts.
          </p>
          <div className="actions">
            <button type="button" className="button secondary" disabled={busy} onClick={() => action.run(tag, { kind: 'cancel_transfer' })}>
              Cancel the offer
            </button>
          </div>
        </div>
      ) : (
        <AddressForm
          id={`${id}-new-owner`}
          label="Offer to"
          value={newOwner}
          onChange={setNewOwner}
          problem={ownerProblem}
          hint="The address becomes the owner only when it accepts; you can cancel until then. On accept, payments go to the new owner."
          submitLabel="Offer the tag"
          busy={busy}
          onSend={(key) => action.run(tag, { kind: 'offer_transfer', newOwner: key })}
        />
      )}

      <form onSubmit={(e) => submit(e, () => releaseReady && action.run(tag, { kind: 'release_tag' }))} noValidate>
        <div className="field">
          <label htmlFor={`${id}-release`}>Type @{tag} to release it</label>
          <input
            id={`${id}-release`}
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
            aria-describedby={`${id}-release-hint`}
          />
          <p id={`${id}-release-hint`} className="hint">
            Releasing deletes the profile and gives the tag up: anyone may register it again. The account&apos;s rent comes back to you.
          </p>
        </div>
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
