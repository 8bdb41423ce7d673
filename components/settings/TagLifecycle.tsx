'use client';

import { useId, useState, type FormEvent } from 'react';
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

/** A field for a Solana address; the problem with what was typed, when there is one, stands in for the hint. */
function AddressField({
  id,
  label,
  value,
  onChange,
  problem,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  hint: string;
}) {
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

      <form onSubmit={(e) => submit(e, () => action.run(tag, { kind: 'set_wallet', wallet: wallet.trim() }))} noValidate>
        <p>
          Payments to @{tag} go to <span className="mono" data-testid="current-wallet">{owned.wallet}</span>.
        </p>
        <AddressField
          id={`${id}-wallet`}
          label="New payout wallet"
          value={wallet}
          onChange={setWallet}
          problem={walletProblem}
          hint="Your wallet signs the change; payment apps see the new wallet at once."
        />
        <div className="actions">
          <button type="submit" className="button" disabled={busy || wallet.trim() === '' || walletProblem !== null}>
            Change wallet
          </button>
        </div>
      </form>

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
        <form onSubmit={(e) => submit(e, () => action.run(tag, { kind: 'offer_transfer', newOwner: newOwner.trim() }))} noValidate>
          <AddressField
            id={`${id}-new-owner`}
            label="Offer to"
            value={newOwner}
            onChange={setNewOwner}
            problem={ownerProblem}
            hint="The address becomes the owner only when it accepts; you can cancel until then. On accept, payments go to the new owner."
          />
          <div className="actions">
            <button type="submit" className="button" disabled={busy || newOwner.trim() === '' || ownerProblem !== null}>
              Offer the tag
            </button>
          </div>
        </form>
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
