import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  acceptTransferInstruction,
  cancelTransferInstruction,
  offerTransferInstruction,
  registerTagInstruction,
  releaseTagInstruction,
  setWalletInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';

/** One lifecycle call as the tests and the benchmark send it straight to the cluster (not through /v1). */
export type LifecycleCall =
  | { kind: 'register'; tag: string; owner: Keypair; wallet: Keypair }
  | { kind: 'set_wallet'; tag: string; owner: Keypair; wallet: Keypair }
  | { kind: 'offer'; tag: string; owner: Keypair; newOwner: PublicKey }
  | { kind: 'cancel'; tag: string; owner: Keypair }
  | { kind: 'accept'; tag: string; newOwner: Keypair }
  | { kind: 'release'; tag: string; owner: Keypair; receiver: PublicKey };

/**
 * The instruction of a call, built with the registry's own codecs, who signs it (and pays),
 * and who else signs: a payout wallet other than the owner consents by signing (DESIGN "Payout rules").
 */
export function instructionOf(
  call: LifecycleCall,
  programId: PublicKey,
): { instruction: TransactionInstruction; signer: Keypair; cosigners: Keypair[] } {
  const { instruction, signer } = soleSignerOf(call, programId);
  const wallet = call.kind === 'register' || call.kind === 'set_wallet' ? call.wallet : null;
  return { instruction, signer, cosigners: wallet && !wallet.publicKey.equals(signer.publicKey) ? [wallet] : [] };
}

function soleSignerOf(
  call: LifecycleCall,
  programId: PublicKey,
): { instruction: TransactionInstruction; signer: Keypair } {
  const [tagRecord] = findTagRecordAddress(call.tag, programId);
  switch (call.kind) {
    case 'register':
      return {
        instruction: registerTagInstruction({
          programId,
          tag: call.tag,
          owner: call.owner.publicKey,
          wallet: call.wallet.publicKey,
          feePayer: call.owner.publicKey,
        }),
        signer: call.owner,
      };
    case 'set_wallet':
      return {
        instruction: setWalletInstruction({
          programId,
          tagRecord,
          owner: call.owner.publicKey,
          wallet: call.wallet.publicKey,
        }),
        signer: call.owner,
      };
    case 'offer':
      return {
        instruction: offerTransferInstruction({
          programId,
          tagRecord,
          owner: call.owner.publicKey,
          newOwner: call.newOwner,
        }),
        signer: call.owner,
      };
    case 'cancel':
      return {
        instruction: cancelTransferInstruction({ programId, tagRecord, owner: call.owner.publicKey }),
        signer: call.owner,
      };
    case 'accept':
      return {
        instruction: acceptTransferInstruction({ programId, tagRecord, newOwner: call.newOwner.publicKey }),
        signer: call.newOwner,
      };
    case 'release':
      return {
        instruction: releaseTagInstruction({
          programId,
          tagRecord,
          owner: call.owner.publicKey,
          receiver: call.receiver,
        }),
        signer: call.owner,
      };
  }
}
