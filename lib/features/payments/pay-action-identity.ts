import { createPrivateKey, createPublicKey } from 'node:crypto';
import { address, getAddressEncoder, type Address, type Instruction } from '@solana/kit';
import bs58 from 'bs58';
import { signEd25519, verifyEd25519 } from '@/lib/core/ed25519';

/*
 * The Solana Actions "Action Identity" (docs/integrators.md, "Telling our payments from copies"):
 * every payment transaction this service builds carries a Memo instruction whose text is
 * `solana-action:<identity>:<reference>:<signature>`, the signature being the service identity
 * key's ed25519 signature of the reference's 32 bytes, both base58. The identity and the
 * reference are also read-only keys of the transfer, so getSignaturesForAddress finds the
 * payment by either. Only the holder of the identity's secret key can write a memo that
 * verifies for a reference, and only the payer's app is handed it, with the transaction.
 */

export const ACTION_IDENTITY_PROTOCOL = 'solana-action';

/** The SPL Memo program (v2), which the memo goes through; v1's id is still read back. */
export const MEMO_PROGRAM_ID = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const MEMO_V1_PROGRAM_ID = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/**
 * The memo instruction's allowance, well above what this memo (no signers) costs in LiteSVM
 * with the Memo build it ships (bench/results/figures-once-in-comments.md): a cluster may run another build of the program, which
 * validates the UTF-8 and logs the text at its own cost per byte. A limit too low fails the
 * payment, one too high only raises the priority fee by the difference.
 */
export const IDENTITY_MEMO_UNITS = 6_000;

/** The service identity: its address, and the 64-byte secret key (seed, then public key) that signs its memos. */
export interface ServiceIdentity {
  address: Address;
  secretKey: Uint8Array;
}

const identities = new Map<string, ServiceIdentity>();

/** The DER prefix of an ed25519 private key (PKCS#8) before its 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The public key the secret key's seed makes; the secret key's second half must be it. */
function publicKeyOfSeed(seed: Uint8Array): Uint8Array {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return new Uint8Array(Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url'));
}

/** The service identity from the configured secret key (config `actionIdentitySecret`), made once; throws on a key that is not a key pair. */
export function serviceIdentity(secretKey: Uint8Array): ServiceIdentity {
  const key = bs58.encode(secretKey);
  let identity = identities.get(key);
  if (!identity) {
    const publicKey = secretKey.length === 64 ? publicKeyOfSeed(secretKey.subarray(0, 32)) : null;
    if (!publicKey || !publicKey.every((byte, i) => byte === secretKey[32 + i]))
      throw new Error('actionIdentitySecret: not a 64-byte ed25519 key pair');
    identity = { address: address(bs58.encode(publicKey)), secretKey: Uint8Array.from(secretKey) };
    identities.set(key, identity);
  }
  return identity;
}

/** The memo text for `reference`, signed by `identity`. */
export function identityMemo(identity: ServiceIdentity, reference: Address): string {
  const signature = signEd25519(identity.secretKey, new Uint8Array(getAddressEncoder().encode(reference)));
  return [ACTION_IDENTITY_PROTOCOL, identity.address, reference, bs58.encode(signature)].join(':');
}

/** The Memo instruction: no accounts, as a Memo signer would have to sign the transaction. */
export function identityMemoInstruction(identity: ServiceIdentity, reference: Address): Instruction {
  return {
    programAddress: MEMO_PROGRAM_ID,
    accounts: [],
    data: new TextEncoder().encode(identityMemo(identity, reference)),
  };
}

/** Whether `program` is a Memo program (either version). */
export function isMemoProgram(program: string): boolean {
  return program === MEMO_PROGRAM_ID || program === MEMO_V1_PROGRAM_ID;
}

/** Whether one of `memos` is this identity's valid memo for `reference`. */
export function carriesIdentityMemo(memos: readonly string[], identity: Address, reference: string): boolean {
  return memos.some((memo) => {
    const parts = memo.trim().split(':');
    if (parts.length !== 4) return false;
    const [protocol, signer, signed, signature] = parts as [string, string, string, string];
    if (protocol !== ACTION_IDENTITY_PROTOCOL || signer !== identity || signed !== reference) return false;
    try {
      return verifyEd25519(bs58.decode(identity), bs58.decode(signed), bs58.decode(signature));
    } catch {
      return false; // not base58, or not a key
    }
  });
}
