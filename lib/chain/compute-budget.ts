import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  ComputeBudgetInstruction,
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitLimitInstructionDataDecoder,
  getSetComputeUnitPriceInstruction,
  getSetComputeUnitPriceInstructionDataDecoder,
  identifyComputeBudgetInstruction,
} from '@solana-program/compute-budget';
import type { Address, Instruction, ReadonlyUint8Array } from '@solana/kit';
import type { ComputeBudget } from './network-fee';

export { LAMPORTS_PER_SIGNATURE, networkFee, type ComputeBudget } from './network-fee';

/** SetComputeUnitLimit then SetComputeUnitPrice: the two instructions every built transaction starts with. */
export function computeBudgetInstructions({ units, microLamports }: ComputeBudget): Instruction[] {
  return [getSetComputeUnitLimitInstruction({ units }), getSetComputeUnitPriceInstruction({ microLamports })];
}

/** An instruction as a decompiled transaction message holds it: its program and its data. */
interface ReadableInstruction {
  programAddress: Address;
  data?: ReadonlyUint8Array;
}

/** The budget a transaction message carries, read back from its instructions (null when it lacks either). */
export function readComputeBudget(message: { instructions: readonly ReadableInstruction[] }): ComputeBudget | null {
  let units: number | null = null;
  let microLamports: number | null = null;
  for (const { programAddress, data } of message.instructions) {
    if (programAddress !== COMPUTE_BUDGET_PROGRAM_ADDRESS || !data) continue;
    const type = identifyComputeBudgetInstruction(data);
    if (type === ComputeBudgetInstruction.SetComputeUnitLimit)
      units = getSetComputeUnitLimitInstructionDataDecoder().decode(data).units;
    if (type === ComputeBudgetInstruction.SetComputeUnitPrice)
      microLamports = Number(getSetComputeUnitPriceInstructionDataDecoder().decode(data).microLamports);
  }
  return units === null || microLamports === null ? null : { units, microLamports };
}
