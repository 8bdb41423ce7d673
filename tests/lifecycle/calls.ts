import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { instructionOf, type LifecycleCall as AnyLifecycleCall } from '@/devstack/lifecycle-instructions';
import { PROGRAM_ADDRESS } from '../support/chain';

/*
 * Lifecycle calls sent straight to the cluster on kit (devstack/lifecycle-instructions.ts).
 */

/** A call whose parties hold kit key pairs. */
export type LifecycleCall = AnyLifecycleCall<KeyPairSigner>;

/**
 * Sends one call, its signer paying (a payout wallet of its own signing too), without preflight, so a call the program refuses still
 * lands as a failed transaction (what a wallet that skips simulation would produce).
 * Resolves with the signature once the cluster has it (localnet lands at once).
 */
export async function sendCall(
  rpc: SolanaRpc,
  call: LifecycleCall,
  latest: { blockhash: Blockhash; lastValidBlockHeight: bigint },
): Promise<Signature> {
  const { instruction, signer, cosigners } = instructionOf(call, PROGRAM_ADDRESS);
  const transaction = compileTransaction(
    pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayer(signer.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions([instruction], m),
    ),
  );
  const signed = await partiallySignTransaction(
    [signer, ...cosigners].map((party) => party.keyPair),
    transaction,
  );
  return rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true })
    .send();
}

/** The cluster's latest blockhash at `confirmed`, what `sendCall` takes. */
export async function latestBlockhash(rpc: SolanaRpc) {
  return (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
}
