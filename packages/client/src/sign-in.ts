import { parseSignInMessageText } from '@solana/wallet-standard-util';
import bs58 from 'bs58';
import { bearer, unwrap, type TagApi } from './http';
import type { TagSigner } from './signer';

export interface Session {
  token: string;
  /** The signer's public key, which the token names. */
  publicKey: string;
  expiresAt: Date;
}

/**
 * Challenge → signature → token (SPEC 5). With a wallet that offers `solana:signIn`, the
 * challenge's fields are handed to the wallet, which writes the same text back and signs it;
 * otherwise the text is signed as it came. The service checks the exact bytes either way.
 */
export async function signIn(api: TagApi, signer: TagSigner): Promise<Session> {
  const { message } = unwrap(await api.POST('/v1/auth/challenge', { body: { pubkey: signer.address } }));
  const signed = await signChallenge(signer, message);
  const { token } = unwrap(
    await api.POST('/v1/auth/verify', {
      body: { pubkey: signer.address, message: signed.message, signature: bs58.encode(signed.signature) },
    }),
  );
  const session = unwrap(await api.GET('/v1/auth/session', bearer(token)));
  return { token, publicKey: signer.address, expiresAt: new Date(session.expiresAt) };
}

async function signChallenge(signer: TagSigner, message: string): Promise<{ message: string; signature: Uint8Array }> {
  const fields = signer.signIn ? parseSignInMessageText(message) : null;
  if (!signer.signIn || !fields)
    return { message, signature: await signer.signMessage(new TextEncoder().encode(message)) };
  const output = await signer.signIn(fields);
  return { message: new TextDecoder().decode(output.signedMessage), signature: output.signature };
}
