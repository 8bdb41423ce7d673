import 'client-only';
/**
 * Signing the server's sign-in challenge with a wallet (DESIGN.md "Sign-in"),
 * apart from React so it is tested without a browser. A wallet that offers Sign-In With
 * Solana (`solana:signIn`) gets the challenge's own fields and renders the sign-in as such;
 * any other wallet signs the text with `signMessage`. Either way the server receives the
 * challenge text, unchanged, and its signature.
 */
import bs58 from 'bs58';
import { isUserRejection } from './api-client';
import {
  ServiceError,
  SignInRefusedError,
  SignedMessageMismatchError,
  SignInRejectedError,
  WalletCannotSignError,
  WalletNotConnectedError,
} from './client-errors';
import { SIGN_IN_RATE_LIMITED, SIGN_IN_UNAVAILABLE } from '@/lib/web/shared/sign-in-errors';
import { signInInputOf, type SignInInput } from '@/lib/features/auth/sign-in-message';
import { signedMessageIs } from './siws';

/** What the page's wallet offers for signing in (wallet-adapter's `useWallet()` fits it). */
export interface SignInWallet {
  /** The connected account, base58, or null. */
  address: string | null;
  /** `solana:signIn`, present only when the wallet offers it. */
  signIn?: (
    input: SignInInput,
  ) => Promise<{ signedMessage: Uint8Array; signature: Uint8Array; signatureType?: string }>;
  signMessage?: (message: Uint8Array) => Promise<Uint8Array>;
}

export type SignInMethod = 'signIn' | 'signMessage';

/** The credentials next-auth's `solana` provider verifies (POST /v1/auth/verify's body). */
export interface SignedChallenge {
  pubkey: string;
  message: string;
  /** base58 ed25519 signature of the message's UTF-8 bytes. */
  signature: string;
  method: SignInMethod;
}

/** Which way `wallet` signs `challenge`: SIWS when it offers it and the challenge is plain SIWS. */
export function signInMethodFor(wallet: SignInWallet, challenge: string): SignInMethod | null {
  if (wallet.signIn && signInInputOf(challenge)) return 'signIn';
  return wallet.signMessage ? 'signMessage' : null;
}

/** The wallet's address when it can sign in at all; checked before asking for a challenge. */
export function signInAddressOf(wallet: SignInWallet): string {
  if (!wallet.address) throw new WalletNotConnectedError();
  if (!wallet.signIn && !wallet.signMessage) throw new WalletCannotSignError('signMessage');
  return wallet.address;
}

/** The wallet's signature of `challenge`; a refusal in the wallet becomes SignInRefusedError. */
export async function signChallenge(wallet: SignInWallet, challenge: string): Promise<SignedChallenge> {
  const pubkey = signInAddressOf(wallet);
  const method = signInMethodFor(wallet, challenge);
  if (!method) throw new WalletCannotSignError('signMessage');
  try {
    if (method === 'signIn') {
      const output = await wallet.signIn!(signInInputOf(challenge)!);
      // A wallet may sign in another account or add fields: the server would refuse that text.
      if (!signedMessageIs(output.signedMessage, challenge) || (output.signatureType ?? 'ed25519') !== 'ed25519') {
        throw new SignedMessageMismatchError();
      }
      return { pubkey, message: challenge, signature: bs58.encode(output.signature), method };
    }
    const signature = await wallet.signMessage!(new TextEncoder().encode(challenge));
    return { pubkey, message: challenge, signature: bs58.encode(signature), method };
  } catch (err) {
    if (!(err instanceof SignedMessageMismatchError) && isUserRejection(err))
      throw new SignInRefusedError({ cause: err });
    throw err;
  }
}

/** next-auth's `signIn()` answer as our errors: a refusal, the rate limit or the service down. */
export function sessionErrorOf(result: { ok: boolean; error: string | null } | undefined): Error | null {
  if (result?.ok && !result.error) return null;
  if (result?.error === SIGN_IN_RATE_LIMITED)
    return new ServiceError('rate_limited', 'Too many sign-in attempts; wait a minute.', 429);
  if (result?.error === SIGN_IN_UNAVAILABLE)
    return new ServiceError('service_unavailable', 'Sign-in is briefly unavailable; try again shortly.', 503);
  return new SignInRejectedError();
}

/** The sentence the sign-in panel shows for a failure. */
export function signInErrorMessage(err: unknown): string {
  if (err instanceof ServiceError && err.code === 'rate_limited') return 'Too many sign-in attempts; wait a minute.';
  if (err instanceof TypeError) return 'Could not reach the server. Try again.';
  if (isUserRejection(err)) return new SignInRefusedError().message;
  return (err instanceof Error && err.message) || 'Sign-in failed.';
}
