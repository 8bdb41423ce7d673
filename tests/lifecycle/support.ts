import { Keypair, PublicKey, Transaction, type Connection, type TransactionInstruction } from '@solana/web3.js';
import { acceptTransferInstruction, cancelTransferInstruction, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction } from '@/lib/registry/instruction';
import { findTagRecordAddress } from '@/lib/registry/pda';
import { PROGRAM_ID } from '../indexer/support';

/** One lifecycle call as tests send it straight to the cluster (not through /v1). */
export type LifecycleCall =
  | { kind: 'register'; tag: string; owner: Keypair; wallet: PublicKey }
  | { kind: 'set_wallet'; tag: string; owner: Keypair; wallet: PublicKey }
  | { kind: 'offer'; tag: string; owner: Keypair; newOwner: PublicKey }
  | { kind: 'cancel'; tag: string; owner: Keypair }
  | { kind: 'accept'; tag: string; newOwner: Keypair }
  | { kind: 'release'; tag: string; owner: Keypair; receiver: PublicKey };

/** The instruction of a call, built with the registry's own codecs, and who signs it. */
export function instructionOf(call: LifecycleCall, programId = PROGRAM_ID): { instruction: TransactionInstruction; signer: Keypair } {
  const [tagRecord] = findTagRecordAddress(call.tag, programId);
  switch (call.kind) {
    case 'register':
      return {
        instruction: registerTagInstruction({ programId, tag: call.tag, owner: call.owner.publicKey, wallet: call.wallet, feePayer: call.owner.publicKey }),
        signer: call.owner,
      };
    case 'set_wallet':
      return { instruction: setWalletInstruction({ programId, tagRecord, owner: call.owner.publicKey, wallet: call.wallet }), signer: call.owner };
    case 'offer':
      return { instruction: offerTransferInstruction({ programId, tagRecord, owner: call.owner.publicKey, newOwner: call.newOwner }), signer: call.owner };
    case 'cancel':
      return { instruction: cancelTransferInstruction({ programId, tagRecord, owner: call.owner.publicKey }), signer: call.owner };
    case 'accept':
      return { instruction: acceptTransferInstruction({ programId, tagRecord, newOwner: call.newOwner.publicKey }), signer: call.newOwner };
    case 'release':
      return { instruction: releaseTagInstruction({ programId, tagRecord, owner: call.owner.publicKey, receiver: call.receiver }), signer: call.owner };
  }
}

/**
 * Sends one call, its signer paying, without preflight, so a call the program refuses still
 * lands as a failed transaction (what a wallet that skips simulation would produce).
 * Resolves with the signature once the cluster has it (localnet lands at once).
 */
export async function sendCall(connection: Connection, call: LifecycleCall, blockhash: { blockhash: string; lastValidBlockHeight: number }): Promise<string> {
  const { instruction, signer } = instructionOf(call);
  const tx = new Transaction({ feePayer: signer.publicKey, ...blockhash }).add(instruction);
  tx.sign(signer);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
}

/** A seeded PRNG (mulberry32): the same seed gives the same run, so a failure replays. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T; shuffle<T>(items: T[]): T[] } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)]!,
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
  };
}
