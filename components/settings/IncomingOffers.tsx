'use client';

import { useId } from 'react';
import { LifecycleProgress } from './LifecycleProgress';
import { useLifecycleAction, type BuildLifecycle } from './useLifecycleAction';

export interface OfferToMe {
  /** Canonical, without `@`. */
  tag: string;
  /** Who offers it. */
  owner: string;
}

/**
 * The tags offered to the signed-in key, each with Accept: the key signs
 * accept_transfer, becomes the owner, and payments to the tag go to it from then on.
 */
export function IncomingOffers({
  offers,
  sessionKey,
  buildLifecycle,
}: {
  offers: readonly OfferToMe[];
  sessionKey: string;
  buildLifecycle: BuildLifecycle;
}) {
  const action = useLifecycleAction(sessionKey, buildLifecycle);
  const id = useId();
  if (offers.length === 0 && action.state.status === 'idle') return null;
  const busy = action.state.status === 'running';
  return (
    <section className="card" aria-labelledby={`${id}-heading`} data-testid="incoming-offers">
      <h2 id={`${id}-heading`}>Tags offered to you</h2>
      <ul className="offers">
        {offers.map((offer) => (
          <li key={offer.tag} data-offer={`@${offer.tag}`}>
            <strong>@{offer.tag}</strong>, from <span className="mono">{offer.owner}</span>{' '}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => action.start({ tag: offer.tag, call: { kind: 'accept_transfer' } })}
            >
              Accept @{offer.tag}
            </button>
          </li>
        ))}
      </ul>
      <p className="hint">Accepting makes you the owner, and your wallet the tag&apos;s payout wallet.</p>
      <LifecycleProgress action={action} />
    </section>
  );
}
