import { createNoopSigner, type Address, type Instruction } from '@solana/kit';
import {
  getAcceptTransferInstruction,
  getCancelTransferInstruction,
  getOfferTransferInstruction,
  getRegisterTagInstruction,
  getReleaseTagInstruction,
  getSetWalletInstruction,
} from '@/packages/tag-registry/src';
import { findTagRecordAddress } from '@/program/pda';

/**
 * One lifecycle call as the tests and the benchmarks send it straight to the cluster (not
 * through /v1), on kit. A party that signs is any key holder with an address (a
 * program/deploy/keys.ts signer for LiteSVM's synchronous world, a kit KeyPairSigner
 * elsewhere); the instruction only needs its address, and the caller signs with what it holds.
 */
export type LifecycleCall<K extends { address: Address } = { address: Address }> =
  | { kind: 'register'; tag: string; owner: K; wallet: K }
  | { kind: 'set_wallet'; tag: string; owner: K; wallet: K }
  | { kind: 'offer'; tag: string; owner: K; newOwner: Address }
  | { kind: 'cancel'; tag: string; owner: K }
  | { kind: 'accept'; tag: string; newOwner: K }
  | { kind: 'release'; tag: string; owner: K; receiver: Address };

/**
 * The instruction of a call, built with the registry's generated builders, who signs it (and
 * pays), and who else signs: a payout wallet other than the owner consents by signing
 * (DESIGN "Payout rules").
 */
export function instructionOf<K extends { address: Address }>(
  call: LifecycleCall<K>,
  programAddress: Address,
): { instruction: Instruction; signer: K; cosigners: K[] } {
  const { instruction, signer } = soleSignerOf(call, programAddress);
  const wallet = call.kind === 'register' || call.kind === 'set_wallet' ? call.wallet : null;
  return { instruction, signer, cosigners: wallet && wallet.address !== signer.address ? [wallet] : [] };
}

/** The builders want a signer for each signing account; the caller signs, so its address is enough here. */
const noop = (party: { address: Address }) => createNoopSigner(party.address);

function soleSignerOf<K extends { address: Address }>(
  call: LifecycleCall<K>,
  programAddress: Address,
): { instruction: Instruction; signer: K } {
  const [tagRecord] = findTagRecordAddress(call.tag, programAddress);
  const config = { programAddress };
  switch (call.kind) {
    case 'register': {
      const { owner, wallet, tag } = call;
      const input = { tagRecord, owner: noop(owner), feePayer: noop(owner), wallet: noop(wallet) };
      return {
        instruction: getRegisterTagInstruction({ ...input, tag, walletArg: wallet.address }, config),
        signer: owner,
      };
    }
    case 'set_wallet': {
      const { owner, wallet } = call;
      const input = { tagRecord, owner: noop(owner), wallet: noop(wallet), walletArg: wallet.address };
      return { instruction: getSetWalletInstruction(input, config), signer: owner };
    }
    case 'offer': {
      const input = { tagRecord, owner: noop(call.owner), newOwner: call.newOwner };
      return { instruction: getOfferTransferInstruction(input, config), signer: call.owner };
    }
    case 'cancel':
      return {
        instruction: getCancelTransferInstruction({ tagRecord, owner: noop(call.owner) }, config),
        signer: call.owner,
      };
    case 'accept': {
      const input = { tagRecord, newOwner: noop(call.newOwner) };
      return { instruction: getAcceptTransferInstruction(input, config), signer: call.newOwner };
    }
    case 'release': {
      const input = { tagRecord, owner: noop(call.owner), receiver: call.receiver };
      return { instruction: getReleaseTagInstruction(input, config), signer: call.owner };
    }
  }
}

/** `register_tag(tag, wallet)` from addresses alone, accounts in ABI order (tests that bend one, benches). */
export function registerTagInstruction(p: {
  programAddress: Address;
  tag: string;
  owner: Address;
  wallet: Address;
  feePayer: Address;
}): Instruction {
  const [tagRecord] = findTagRecordAddress(p.tag, p.programAddress);
  const signers = {
    owner: createNoopSigner(p.owner),
    feePayer: createNoopSigner(p.feePayer),
    wallet: createNoopSigner(p.wallet),
  };
  return getRegisterTagInstruction(
    { tagRecord, ...signers, tag: p.tag, walletArg: p.wallet },
    { programAddress: p.programAddress },
  );
}

/** `set_wallet(wallet)` from addresses alone, on the record given (which a test may have planted). */
export function setWalletInstruction(p: {
  programAddress: Address;
  tagRecord: Address;
  owner: Address;
  wallet: Address;
}): Instruction {
  const input = { tagRecord: p.tagRecord, owner: createNoopSigner(p.owner), wallet: createNoopSigner(p.wallet) };
  return getSetWalletInstruction({ ...input, walletArg: p.wallet }, { programAddress: p.programAddress });
}
