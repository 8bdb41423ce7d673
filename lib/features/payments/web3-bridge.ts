import { isSignerRole, isWritableRole, type Address, type Instruction } from '@solana/kit';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';

/*
 * The payments' only contact with web3.js v1, while the two lib/chain files they build with
 * are still on it (lib/chain/build-unsigned-transaction.ts, lib/chain/priority-fee.ts): kit
 * instructions and addresses are converted here, at those calls, and nowhere else. This file
 * goes when those two move to kit.
 */

/** A kit instruction as web3.js v1 takes it: the same program, accounts, roles and data. */
export function toWeb3Instruction(instruction: Instruction): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(instruction.programAddress),
    keys: (instruction.accounts ?? []).map((account) => ({
      pubkey: new PublicKey(account.address),
      isSigner: isSignerRole(account.role),
      isWritable: isWritableRole(account.role),
    })),
    data: Buffer.from(instruction.data ?? new Uint8Array()),
  });
}

/** Addresses as web3.js v1 keys. */
export const toPublicKeys = (addresses: readonly Address[]): PublicKey[] => addresses.map((a) => new PublicKey(a));
