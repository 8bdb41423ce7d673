/**
 * The transactions of a loader-v3 deploy, one step each: what it is called (in logs and
 * errors), its instructions, and who signs it besides the payer. The cluster deploy
 * (deploy.ts) and the LiteSVM one (litesvm-deploy.ts) send the same steps, each in its own
 * way (retries and resumption there, synchronously here), so the two cannot drift apart.
 */
import type { Address, Instruction } from '@solana/kit';
import type { Signer } from './keys';
import {
  chunkOffsets,
  closeBufferInstruction,
  createBufferInstructions,
  deployInstructions,
  extendProgramInstruction,
  setAuthorityInstruction,
  upgradeInstruction,
  writeInstruction,
} from './loader-v3';

export interface DeployStep {
  what: string;
  instructions: Instruction[];
  /** Signers besides the payer. */
  signers: Signer[];
}

/** Creates the buffer account (the buffer's key signs) and names its authority. */
export function createBufferStep(p: {
  payer: Address;
  buffer: Signer;
  authority: Address;
  programLength: number;
  lamports: bigint;
}): DeployStep {
  const { buffer, ...rest } = p;
  return {
    what: 'create buffer',
    instructions: createBufferInstructions({ ...rest, buffer: buffer.address }),
    signers: [buffer],
  };
}

/** The Writes that put `so` into the buffer, a chunk each, in order; `offset` says where each goes. */
export function writeSteps(p: {
  buffer: Address;
  authority: Signer;
  so: Uint8Array;
  chunk: number;
}): Array<DeployStep & { offset: number }> {
  return chunkOffsets(p.so.length, p.chunk).map((offset) => ({
    offset,
    what: `write at ${offset}`,
    instructions: [
      writeInstruction({
        buffer: p.buffer,
        authority: p.authority.address,
        offset,
        bytes: p.so.subarray(offset, offset + p.chunk),
      }),
    ],
    signers: [p.authority],
  }));
}

/** Creates the program account (its key signs) and deploys the buffer into its ProgramData. */
export function deployStep(p: {
  payer: Address;
  program: Signer;
  buffer: Address;
  authority: Signer;
  maxDataLength: number;
  programAccountLamports: bigint;
}): DeployStep {
  return {
    what: 'deploy',
    instructions: deployInstructions({ ...p, programId: p.program.address, authority: p.authority.address }),
    signers: [p.program, p.authority],
  };
}

export function upgradeStep(p: { programId: Address; buffer: Address; authority: Signer; spill: Address }): DeployStep {
  return {
    what: 'upgrade',
    instructions: [upgradeInstruction({ ...p, authority: p.authority.address })],
    signers: [p.authority],
  };
}

/** Grows the ProgramData; the authority signs ExtendProgramChecked (the unchecked form needs no signature of it). */
export function extendStep(p: {
  programId: Address;
  authority: Signer;
  payer: Address;
  additionalBytes: number;
  checked: boolean;
}): DeployStep {
  return {
    what: 'extend program data',
    instructions: [extendProgramInstruction({ ...p, authority: p.authority.address })],
    signers: [p.authority],
  };
}

/** Hands the authority of a program or buffer to `next`; `null` makes a program final. */
export function setAuthorityStep(
  what: string,
  p: { account: Address; authority: Signer; next: Address | null },
): DeployStep {
  return {
    what,
    instructions: [setAuthorityInstruction({ account: p.account, current: p.authority.address, next: p.next })],
    signers: [p.authority],
  };
}

export function closeBufferStep(
  what: string,
  p: { buffer: Address; authority: Signer; recipient: Address },
): DeployStep {
  return {
    what,
    instructions: [closeBufferInstruction({ ...p, authority: p.authority.address })],
    signers: [p.authority],
  };
}
