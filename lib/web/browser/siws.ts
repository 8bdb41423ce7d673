import 'client-only';
/*
 * Sign-In With Solana on the page's side. The server's challenge is a SIWS message
 * (lib/features/auth/sign-in-message.ts, wallet-standard's grammar); a wallet that offers
 * `solana:signIn` builds the text itself from input fields, so the page hands it the
 * challenge's fields only when they write the challenge back byte for byte (`signInInputOf`),
 * and checks what the wallet says it signed.
 */

/** Whether the bytes a wallet says it signed are the challenge text, exactly. */
export function signedMessageIs(signedMessage: Uint8Array, challenge: string): boolean {
  const expected = new TextEncoder().encode(challenge);
  return signedMessage.length === expected.length && signedMessage.every((b, i) => b === expected[i]);
}
