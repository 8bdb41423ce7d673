import { createSignInMessageText } from '@solana/wallet-standard-util';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, inject, it } from 'vitest';
import { formatSignInMessage } from '@/lib/features/auth/sign-in-message';
import {
  ServiceError,
  SignInRefusedError,
  SignInRejectedError,
  SignedMessageMismatchError,
  WalletCannotSignError,
  WalletNotConnectedError,
} from '@/lib/web/browser/client-errors';
import type { SignInInput } from '@/lib/features/auth/sign-in-message';
import {
  sessionErrorOf,
  signChallenge,
  signInErrorMessage,
  signInMethodFor,
  type SignInWallet,
} from '@/lib/web/browser/wallet-sign-in';

/**
 * A wallet as the page sees it, signing with a real ed25519 key. With `siws`, its
 * `solana:signIn` writes the message from the input the way wallets do (wallet-standard's
 * SIWS writer), for the account it holds.
 */
function testWallet(options: { siws: boolean; account?: nacl.SignKeyPair; refuse?: boolean }) {
  const key = nacl.sign.keyPair();
  const account = options.account ?? key;
  const calls = { signIn: [] as SignInInput[], signMessage: 0 };
  const refusal = Object.assign(new Error('User rejected the request.'), { code: 4001 });
  const wallet: SignInWallet = {
    address: bs58.encode(key.publicKey),
    signMessage: async (message) => {
      calls.signMessage += 1;
      if (options.refuse) throw refusal;
      return nacl.sign.detached(message, key.secretKey);
    },
    ...(options.siws
      ? {
          signIn: async (input: SignInInput) => {
            calls.signIn.push(input);
            if (options.refuse) throw refusal;
            const text = createSignInMessageText({ ...input, address: bs58.encode(account.publicKey) });
            const signedMessage = new TextEncoder().encode(text);
            return { signedMessage, signature: nacl.sign.detached(signedMessage, account.secretKey) };
          },
        }
      : {}),
  };
  return { wallet, key, calls };
}

function challengeFor(address: string): string {
  return formatSignInMessage({
    domain: 'tags.example',
    pubkey: address,
    nonce: '7dKxq3oP1wZtY5bNcL2mVf',
    issuedAt: new Date('2026-11-02T10:00:00.000Z'),
    expiresAt: new Date('2026-11-02T10:05:00.000Z'),
  });
}

function verifies(signature: string, message: string, key: nacl.SignKeyPair): boolean {
  return nacl.sign.detached.verify(new TextEncoder().encode(message), bs58.decode(signature), key.publicKey);
}

describe('signChallenge', () => {
  it('signs in through solana:signIn with the challenge fields when the wallet offers it', async () => {
    const { wallet, key, calls } = testWallet({ siws: true });
    const challenge = challengeFor(wallet.address!);
    const signed = await signChallenge(wallet, challenge);
    expect(signed).toMatchObject({ pubkey: wallet.address, message: challenge, method: 'signIn' });
    expect(verifies(signed.signature, challenge, key)).toBe(true);
    expect(calls.signIn).toHaveLength(1);
    expect(Object.keys(calls.signIn[0]).sort()).toEqual([
      'address',
      'domain',
      'expirationTime',
      'issuedAt',
      'nonce',
      'statement',
    ]);
    expect(calls.signMessage).toBe(0);
  });

  it('falls back to signMessage on a wallet without solana:signIn', async () => {
    const { wallet, key, calls } = testWallet({ siws: false });
    const challenge = challengeFor(wallet.address!);
    const signed = await signChallenge(wallet, challenge);
    expect(signed.method).toBe('signMessage');
    expect(verifies(signed.signature, challenge, key)).toBe(true);
    expect(calls.signMessage).toBe(1);
  });

  it('uses signMessage when the challenge cannot be written as SIWS fields', async () => {
    const { wallet, calls } = testWallet({ siws: true });
    const challenge = `${challengeFor(wallet.address!)}\nURI: https://tags.example`;
    expect(signInMethodFor(wallet, challenge)).toBe('signMessage');
    await signChallenge(wallet, challenge);
    expect(calls).toEqual({ signIn: [], signMessage: 1 });
  });

  it('never sends what a wallet signed for another account', async () => {
    const { wallet } = testWallet({ siws: true, account: nacl.sign.keyPair() });
    await expect(signChallenge(wallet, challengeFor(wallet.address!))).rejects.toBeInstanceOf(
      SignedMessageMismatchError,
    );
  });

  it.each([true, false])(
    'a refusal in the wallet (siws: %s) is a SignInRefusedError carrying the wallet error',
    async (siws) => {
      const { wallet } = testWallet({ siws, refuse: true });
      const err = await signChallenge(wallet, challengeFor(wallet.address!)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignInRefusedError);
      expect((err as Error).name).toBe('SignInRefusedError');
      expect(((err as Error).cause as { code: number }).code).toBe(4001);
    },
  );

  it('needs a connected wallet that can sign', async () => {
    await expect(signChallenge({ address: null }, 'x')).rejects.toBeInstanceOf(WalletNotConnectedError);
    await expect(signChallenge({ address: 'abc' }, 'x')).rejects.toBeInstanceOf(WalletCannotSignError);
  });
});

describe('sessionErrorOf and signInErrorMessage', () => {
  it.each([
    ['a session', { ok: true, error: null }, null],
    ['the shared rate limit', { ok: false, error: 'RateLimited' }, 'Too many sign-in attempts; wait a minute.'],
    ['the service down', { ok: false, error: 'Unavailable' }, 'Sign-in is briefly unavailable; try again shortly.'],
    ['a refused signature', { ok: false, error: 'CredentialsSignin' }, 'Sign-in failed. Try again.'],
    ['no answer', undefined, 'Sign-in failed. Try again.'],
  ] as const)('%s', (_name, result, message) => {
    const err = sessionErrorOf(result);
    expect(err && signInErrorMessage(err)).toBe(message);
  });

  it('names the failure kinds with classes', () => {
    expect(sessionErrorOf({ ok: false, error: 'RateLimited' })).toEqual(
      new ServiceError('rate_limited', 'Too many sign-in attempts; wait a minute.', 429),
    );
    expect(sessionErrorOf({ ok: false, error: 'Unavailable' })).toEqual(
      new ServiceError('service_unavailable', 'Sign-in is briefly unavailable; try again shortly.', 503),
    );
    expect(sessionErrorOf({ ok: false, error: 'CredentialsSignin' })).toBeInstanceOf(SignInRejectedError);
  });

  it.each([
    ['a refusal', new SignInRefusedError(), 'You declined the sign-in request in your wallet.'],
    [
      "a wallet's own refusal",
      Object.assign(new Error('Request rejected'), { code: 4001 }),
      'You declined the sign-in request in your wallet.',
    ],
    ['an unreachable server', new TypeError('Failed to fetch'), 'Could not reach the server. Try again.'],
    [
      'a /v1 error',
      new ServiceError('invalid_request', '`pubkey` must be a base58 Solana public key.', 400),
      '`pubkey` must be a base58 Solana public key.',
    ],
    [
      'a 429 from the challenge',
      new ServiceError('rate_limited', 'Too many requests; try again later.', 429),
      'Too many sign-in attempts; wait a minute.',
    ],
    ['anything else', 'nope', 'Sign-in failed.'],
  ])('%s reads as the panel shows it', (_name, err, message) => {
    expect(signInErrorMessage(err)).toBe(message);
  });
});

describe('against the running app (POST /v1/auth/challenge, then /v1/auth/verify)', () => {
  const appUrl = inject('appUrl');
  const post = (path: string, body: unknown) =>
    fetch(`${appUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it.each([true, false])('what the page sends (siws: %s) is accepted by the server', async (siws) => {
    const { wallet, calls } = testWallet({ siws });
    const res = await post('/v1/auth/challenge', { pubkey: wallet.address });
    expect(res.status).toBe(200);
    const { message } = (await res.json()) as { message: string };
    const signed = await signChallenge(wallet, message);
    expect(signed.method).toBe(siws ? 'signIn' : 'signMessage');
    expect(calls.signIn.length).toBe(siws ? 1 : 0);
    const verify = await post('/v1/auth/verify', {
      pubkey: signed.pubkey,
      message: signed.message,
      signature: signed.signature,
    });
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ token: expect.any(String) });
  });
});
