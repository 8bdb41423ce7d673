import bs58 from 'bs58';
import nacl from 'tweetnacl';

/** A wallet's key pair as tests hold it: base58 public key, 64-byte tweetnacl secret key. */
export interface TestKeypair {
  publicKey: string;
  /** tweetnacl layout: seed ‖ public key (what web3.js's Keypair.fromSecretKey takes). */
  secretKey: Uint8Array;
}

export function newKeypair(): TestKeypair {
  const kp = nacl.sign.keyPair();
  return { publicKey: bs58.encode(kp.publicKey), secretKey: kp.secretKey };
}

/** ed25519 signature of the UTF-8 message, base58, signed with tweetnacl as a wallet would. */
export function signText(kp: TestKeypair, message: string): string {
  return bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), kp.secretKey));
}
