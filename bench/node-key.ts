// Shared by the chain benchmarks: fast signing with Node's ed25519.
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Instruction,
  type SignatureBytes,
} from '@solana/kit';

/**
 * A Node ed25519 key for a 64-byte secret key (seed, then public key: web3.js's `Keypair`,
 * the tests' key pairs): it signs in ~50 µs where a pure-JS signer takes milliseconds, which
 * the client would otherwise be measuring.
 */
export function nodeKey({ secretKey }: { secretKey: Uint8Array }): KeyObject {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: b64(secretKey.subarray(0, 32)), x: b64(secretKey.subarray(32, 64)) },
    format: 'jwk',
  });
}

/** A key holder for the benches: its address and its Node ed25519 key. */
export interface NodeSigner {
  address: Address;
  key: KeyObject;
}

/** A fresh key pair, held as Node's ed25519 key. */
export function newNodeSigner(): NodeSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return { address: getAddressDecoder().decode(Buffer.from(x, 'base64url')), key: privateKey };
}

/** A legacy transaction of `instructions`, `feePayer` paying, signed by it and every cosigner: its wire bytes. */
export function nodeSignedWire(
  instructions: readonly Instruction[],
  feePayer: NodeSigner,
  latest: { blockhash: Blockhash; lastValidBlockHeight: bigint },
  cosigners: readonly NodeSigner[] = [],
): Base64EncodedWireTransaction {
  const tx = compileTransaction(
    pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayer(feePayer.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  const message = new Uint8Array(tx.messageBytes);
  const signatures = { ...tx.signatures };
  for (const signer of [feePayer, ...cosigners])
    signatures[signer.address] = sign(null, message, signer.key) as unknown as SignatureBytes;
  return getBase64EncodedWireTransaction({ ...tx, signatures });
}
