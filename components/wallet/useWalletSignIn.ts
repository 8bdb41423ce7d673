'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { requestChallenge } from '@/lib/web/browser/api-client';
import { useSiteWallet } from './site-wallet-context';
import { sessionErrorOf, signChallenge, signInAddressOf, signInErrorMessage } from '@/lib/web/browser/wallet-sign-in';

export type WalletSignInStatus = 'idle' | 'signing-in' | 'signing-out';

export interface WalletSignIn {
  /** The connected wallet's public key (base58), or null. */
  walletKey: string | null;
  connected: boolean;
  /** The session belongs to the connected wallet. */
  signedInHere: boolean;
  /** Whether the connected wallet signs in through its own Sign-In With Solana. */
  offersSignIn: boolean;
  status: WalletSignInStatus;
  busy: boolean;
  /** What went wrong last, in words for the person; cleared by the next attempt. */
  error: string | null;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
}

/**
 * Sign-in for the pages, headless: POST /v1/auth/challenge, the wallet signs it
 * (`solana:signIn` with the challenge's fields, else `signMessage`), then next-auth's
 * `solana` provider verifies it with the same nonce store as /v1/auth/verify and the page's
 * server components re-read the session.
 */
/**
 * next-auth's browser client, loaded when the visitor signs in or out: the pages need none of
 * it before (the session is read on the server), so it stays out of their first load.
 */
const loadSessionClient = () => import('next-auth/react');

export function useWalletSignIn(sessionKey: string | null): WalletSignIn {
  const wallet = useSiteWallet();
  const router = useRouter();
  const [status, setStatus] = useState<WalletSignInStatus>('idle');
  const [error, setError] = useState<string | null>(null);
  // Guards against a second click before the re-render disables the button.
  const pending = useRef(false);
  const walletKey = wallet.publicKey?.toBase58() ?? null;

  // Sign-in and sign-out alike: one at a time, the error cleared then set in words, the session re-read.
  async function exclusively(
    busyAs: WalletSignInStatus,
    work: () => Promise<void>,
    problem: (err: unknown) => string,
  ): Promise<void> {
    if (pending.current) return;
    pending.current = true;
    setStatus(busyAs);
    setError(null);
    try {
      await work();
      router.refresh();
    } catch (err) {
      setError(problem(err));
    } finally {
      pending.current = false;
      setStatus('idle');
    }
  }

  const signIn = () =>
    exclusively(
      'signing-in',
      async () => {
        const signer = { address: walletKey, signIn: wallet.signIn, signMessage: wallet.signMessage };
        const challenge = await requestChallenge(signInAddressOf(signer));
        const signed = await signChallenge(signer, challenge);
        const result = await (
          await loadSessionClient()
        ).signIn('solana', {
          pubkey: signed.pubkey,
          message: signed.message,
          signature: signed.signature,
          redirect: false,
        });
        const failure = sessionErrorOf(result);
        if (failure) throw failure;
      },
      signInErrorMessage,
    );

  const signOut = () =>
    exclusively(
      'signing-out',
      async () => {
        await (await loadSessionClient()).signOut({ redirect: false });
      },
      () => 'Sign-out failed. Try again.',
    );

  return {
    walletKey,
    connected: wallet.connected,
    signedInHere: sessionKey !== null && sessionKey === walletKey,
    offersSignIn: !!wallet.signIn,
    status,
    busy: status !== 'idle',
    error,
    signIn,
    signOut,
  };
}
