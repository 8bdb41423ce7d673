/**
 * Keys for the deploy commands: Solana CLI keypair files (a JSON array of the 64-byte
 * secret key) and synchronous ed25519 signing, so the same transaction builders serve a
 * LiteSVM (synchronous) and a cluster.
 */
import { address, type Address } from '@solana/kit';
import bs58 from 'bs58';
import { readFileSync, writeFileSync } from 'node:fs';
import nacl from 'tweetnacl';

export interface Signer {
  address: Address;
  /** ed25519 secret key, 64 bytes (seed ‖ public key), as Solana CLI keypair files hold it. */
  secretKey: Uint8Array;
}

export function signerFromSecretKey(secretKey: Uint8Array): Signer {
  if (secretKey.length !== 64) throw new Error(`a keypair has 64 bytes, got ${secretKey.length}`);
  const pair = nacl.sign.keyPair.fromSecretKey(secretKey);
  if (!Buffer.from(pair.publicKey).equals(Buffer.from(secretKey.subarray(32)))) {
    throw new Error('keypair: public half does not match the secret half');
  }
  return { address: address(bs58.encode(pair.publicKey)), secretKey: new Uint8Array(secretKey) };
}

export function generateSigner(): Signer {
  return signerFromSecretKey(nacl.sign.keyPair().secretKey);
}

export function readKeypairFile(path: string): Signer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: not a keypair file (${(e as Error).message})`);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 64 ||
    !parsed.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
  ) {
    throw new Error(`${path}: a keypair file is a JSON array of 64 bytes (solana-keygen's format)`);
  }
  return signerFromSecretKey(Uint8Array.from(parsed as number[]));
}

export function writeKeypairFile(path: string, signer: Signer): void {
  writeFileSync(path, `${JSON.stringify(Array.from(signer.secretKey))}\n`, { mode: 0o600 });
}

export function sign(signer: Signer, message: Uint8Array): Uint8Array {
  return nacl.sign.detached(message, signer.secretKey);
}
