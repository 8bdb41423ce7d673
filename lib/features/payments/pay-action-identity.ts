import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
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
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const MEMO_V1_PROGRAM_ID = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/**
 * The memo instruction's allowance, well above what this memo (no signers) costs in LiteSVM
 * with the Memo build it ships (bench/results/figures-once-in-comments.md): a cluster may run another build of the program, which
 * validates the UTF-8 and logs the text at its own cost per byte. A limit too low fails the
 * payment, one too high only raises the priority fee by the difference.
 */
export const IDENTITY_MEMO_UNITS = 6_000;

const identities = new Map<string, Keypair>();

/** The service identity from the configured secret key (config `actionIdentitySecret`), made once. */
export function serviceIdentity(secretKey: Uint8Array): Keypair {
  const key = bs58.encode(secretKey);
  let identity = identities.get(key);
  if (!identity) {
    identity = Keypair.fromSecretKey(secretKey);
    identities.set(key, identity);
  }
  return identity;
}

/** The memo text for `reference`, signed by `identity`. */
export function identityMemo(identity: Keypair, reference: PublicKey): string {
  const signature = signEd25519(identity.secretKey, reference.toBytes());
  return [ACTION_IDENTITY_PROTOCOL, identity.publicKey.toBase58(), reference.toBase58(), bs58.encode(signature)].join(
    ':',
  );
}

/** The Memo instruction: no accounts, as a Memo signer would have to sign the transaction. */
export function identityMemoInstruction(identity: Keypair, reference: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [],
    data: Buffer.from(identityMemo(identity, reference), 'utf8'),
  });
}

/** Whether `program` is a Memo program (either version). */
export function isMemoProgram(program: PublicKey | string): boolean {
  const id = typeof program === 'string' ? program : program.toBase58();
  return id === MEMO_PROGRAM_ID.toBase58() || id === MEMO_V1_PROGRAM_ID.toBase58();
}

/** Whether one of `memos` is this identity's valid memo for `reference`. */
export function carriesIdentityMemo(memos: readonly string[], identity: PublicKey, reference: string): boolean {
  return memos.some((memo) => {
    const parts = memo.trim().split(':');
    if (parts.length !== 4) return false;
    const [protocol, signer, signed, signature] = parts as [string, string, string, string];
    if (protocol !== ACTION_IDENTITY_PROTOCOL || signer !== identity.toBase58() || signed !== reference) return false;
    try {
      return verifyEd25519(identity.toBytes(), new PublicKey(signed).toBytes(), bs58.decode(signature));
    } catch {
      return false; // not base58, or not a key
    }
  });
}
