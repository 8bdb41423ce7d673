'use client';

import { shortKey } from '@/lib/web/browser/format';
import { useWalletSignIn } from './useWalletSignIn';

/** The session line of the wallet bar: who is signed in, and the buttons to change it. */
export function SignInPanel({ sessionKey }: { sessionKey: string | null }) {
  const { walletKey, connected, signedInHere, busy, status, error, signIn, signOut } = useWalletSignIn(sessionKey);
  return (
    <div className="session" aria-live="polite">
      {sessionKey ? (
        <p>
          Signed in as{' '}
          <span className="mono" title={sessionKey}>
            {shortKey(sessionKey)}
          </span>
          {walletKey && !signedInHere ? (
            <span className="warn">
              {' '}
              — the connected wallet is {shortKey(walletKey)}; sign in with it to act for it.
            </span>
          ) : null}
        </p>
      ) : (
        <p>{connected ? 'Wallet connected. Sign in to prove it is yours.' : 'Connect a wallet, then sign in.'}</p>
      )}
      <div className="actions">
        {connected && !signedInHere ? (
          <button type="button" className="button" onClick={signIn} disabled={busy}>
            {status === 'signing-in' ? 'Signing in…' : 'Sign in with wallet'}
          </button>
        ) : null}
        {sessionKey ? (
          <button type="button" className="button secondary" onClick={signOut} disabled={busy}>
            Sign out
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
