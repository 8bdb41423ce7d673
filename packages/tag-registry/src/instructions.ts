/**
 * Reading an instruction of the program back with the program's own strictness: the
 * generated parsers accept trailing bytes and repair invalid UTF-8, the program refuses both
 * (InvalidInstructionData), so a parse counts only when re-encoding it gives the same bytes.
 */
import { AccountRole, type AccountMeta, type Address, type ReadonlyUint8Array } from '@solana/kit';
import {
  getAcceptTransferInstructionDataEncoder,
  getCancelTransferInstructionDataEncoder,
  getOfferTransferInstructionDataEncoder,
  getRegisterTagInstructionDataEncoder,
  getReleaseTagInstructionDataEncoder,
  getSetWalletInstructionDataEncoder,
  parseTagRegistryInstruction,
  TagRegistryInstruction,
  type ParsedTagRegistryInstruction,
} from './generated';

const DATA_ENCODERS: Record<TagRegistryInstruction, () => { encode(value: never): ReadonlyUint8Array }> = {
  [TagRegistryInstruction.RegisterTag]: getRegisterTagInstructionDataEncoder,
  [TagRegistryInstruction.SetWallet]: getSetWalletInstructionDataEncoder,
  [TagRegistryInstruction.OfferTransfer]: getOfferTransferInstructionDataEncoder,
  [TagRegistryInstruction.CancelTransfer]: getCancelTransferInstructionDataEncoder,
  [TagRegistryInstruction.AcceptTransfer]: getAcceptTransferInstructionDataEncoder,
  [TagRegistryInstruction.ReleaseTag]: getReleaseTagInstructionDataEncoder,
};

/** An instruction as a transaction holds it: its program, its accounts in order, its data. */
export interface RawInstruction {
  programAddress: Address;
  accounts: readonly Address[];
  data: ReadonlyUint8Array;
}

/**
 * The instruction `data` calls, with its arguments and its accounts by their ABI names; `null`
 * for data the program would refuse as InvalidInstructionData (unknown discriminator, a
 * length that is not exact, a tag that is not UTF-8) and for fewer accounts than the ABI
 * lists. Never throws. Extra accounts are ignored, as the program ignores them; argument
 * values (a zero key, a tag outside the rules) are the program's to judge.
 */
export function parseRegistryInstruction({ programAddress, accounts, data }: RawInstruction): ParsedTagRegistryInstruction | null {
  const metas: AccountMeta[] = accounts.map((address) => ({ address, role: AccountRole.READONLY }));
  let parsed: ParsedTagRegistryInstruction;
  try {
    parsed = parseTagRegistryInstruction({ programAddress, accounts: metas, data }) as ParsedTagRegistryInstruction;
  } catch {
    return null;
  }
  const again = DATA_ENCODERS[parsed.instructionType]().encode(parsed.data as never);
  return again.length === data.length && again.every((byte, i) => byte === data[i]) ? parsed : null;
}
