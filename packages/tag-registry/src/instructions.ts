/**
 * Reading an instruction of the program back with the program's own strictness: the
 * generated parsers accept trailing bytes and repair invalid UTF-8, the program refuses both
 * (InvalidInstructionData), so a parse counts only when re-encoding it gives the same bytes.
 * (kit's UTF-8 decoder also drops NUL characters: a tag holding one, which the program refuses
 * as TagInvalidChar, reads here as unparsable data.)
 */
import { AccountRole, type AccountMeta, type Address, type ReadonlyUint8Array } from '@solana/kit';
import {
  getAcceptTransferInstructionDataCodec,
  getCancelTransferInstructionDataCodec,
  getOfferTransferInstructionDataCodec,
  getRegisterTagInstructionDataCodec,
  getReleaseTagInstructionDataCodec,
  getSetWalletInstructionDataCodec,
  identifyTagRegistryInstruction,
  parseTagRegistryInstruction,
  TagRegistryInstruction,
  type ParsedTagRegistryInstruction,
} from './generated';

const DATA_CODECS: Record<
  TagRegistryInstruction,
  () => { decode(bytes: ReadonlyUint8Array): object; encode(value: never): ReadonlyUint8Array }
> = {
  [TagRegistryInstruction.RegisterTag]: getRegisterTagInstructionDataCodec,
  [TagRegistryInstruction.SetWallet]: getSetWalletInstructionDataCodec,
  [TagRegistryInstruction.OfferTransfer]: getOfferTransferInstructionDataCodec,
  [TagRegistryInstruction.CancelTransfer]: getCancelTransferInstructionDataCodec,
  [TagRegistryInstruction.AcceptTransfer]: getAcceptTransferInstructionDataCodec,
  [TagRegistryInstruction.ReleaseTag]: getReleaseTagInstructionDataCodec,
};

/** An instruction as a transaction holds it: its program, its accounts in order, its data. */
export interface RawInstruction {
  programAddress: Address;
  accounts: readonly Address[];
  data: ReadonlyUint8Array;
}

/**
 * Which instruction `data` calls and its arguments; `null` for data the program would refuse
 * as InvalidInstructionData (unknown discriminator, a length that is not exact, a tag that is
 * not UTF-8). Never throws. Argument values (a zero key, a tag outside the rules) are the
 * program's to judge.
 */
export function parseRegistryInstructionData(
  data: ReadonlyUint8Array,
): { instructionType: TagRegistryInstruction; data: object } | null {
  let instructionType: TagRegistryInstruction;
  let decoded: object;
  try {
    instructionType = identifyTagRegistryInstruction(data);
    decoded = DATA_CODECS[instructionType]().decode(data);
  } catch {
    return null;
  }
  const again = DATA_CODECS[instructionType]().encode(decoded as never);
  return again.length === data.length && again.every((byte, i) => byte === data[i])
    ? { instructionType, data: decoded }
    : null;
}

/**
 * The instruction with its arguments and its accounts by their ABI names: `null` when its data
 * does not parse (`parseRegistryInstructionData`) or when it has fewer accounts than the ABI
 * lists. Never throws. Extra accounts are ignored, as the program ignores them.
 */
export function parseRegistryInstruction({
  programAddress,
  accounts,
  data,
}: RawInstruction): ParsedTagRegistryInstruction | null {
  if (!parseRegistryInstructionData(data)) return null;
  const metas: AccountMeta[] = accounts.map((address) => ({ address, role: AccountRole.READONLY }));
  try {
    return parseTagRegistryInstruction({ programAddress, accounts: metas, data }) as ParsedTagRegistryInstruction;
  } catch {
    return null;
  }
}
