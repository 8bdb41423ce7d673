'use client';

import { useWallet } from '@solana/wallet-adapter-react';
import bs58 from 'bs58';
import { signIn, signOut } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { errorMessageOf, isUserRejection } from '@/lib/web/api-client';
import { shortKey } from '@/lib/web/format';

/**
 * Wallet sign-in for the pages: POST /v1/auth/challenge, the wallet signs the message, then
 * next-auth's `solana` provider verifies it with the same nonce store as /v1/auth/verify.
 */
export function SignInPanel({ sessionKey }: { sessionKey: string | null }) {
  const { publicKey, signMessage, connected } = useWallet();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const walletKey = publicKey?.toBase58() ?? null;

  async function signInWithWallet() {
    if (!walletKey) return;
    if (!signMessage) {
      setError('This wallet cannot sign messages, so it cannot sign in.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/v1/auth/challenge', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pubkey: walletKey }),
      });
      if (!res.ok) throw new Error(await errorMessageOf(res));
      const { message } = (await res.json()) as { message: string };
      const signature = await signMessage(new TextEncoder().encode(message));
      const result = await signIn('solana', { pubkey: walletKey, message, signature: bs58.encode(signature), redirect: false });
      if (!result?.ok || result.error) {
        throw new Error(result?.error === 'RateLimited' ? 'Too many sign-in attempts; wait a minute.' : 'Sign-in failed. Try again.');
      }
      router.refresh();
    } catch (err) {
      setError(isUserRejection(err) ? 'You declined the sign-in request in your wallet.' : (err as Error).message || 'Sign-in failed.');
    } finally {
      setBusy(false);
    }
  }

  async function signOutNow() {
    setBusy(true);
    setError(null);
    try {
      await signOut({ redirect: false });
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  const signedInHere = sessionKey !== null && sessionKey === walletKey;
  return (
    <div className="session" aria-live="polite">
      {sessionKey ? (
        <p>
          Signed in as <span className="mono" title={sessionKey}>{shortKey(sessionKey)}</span>
          {walletKey && !signedInHere ? (
            <span className="warn"> — the connected wallet is {shortKey(walletKey)}; sign in with it to act for it.</span>
          ) : null}
        </p>
      ) : (
        <p>{connected ? 'Wallet connected. Sign in to prove it is yours.' : 'Connect a wallet, then sign in.'}</p>
      )}
      <div className="actions">
        {connected && !signedInHere ? (
          <button type="button" className="button" onClick={signInWithWallet} disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in with wallet'}
          </button>
        ) : null}
        {sessionKey ? (
          <button type="button" className="button secondary" onClick={signOutNow} disabled={busy}>
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
