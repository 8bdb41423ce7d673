/**
 * The tag registry's custom error codes (Anchor convention: from 6000). The same table is
 * in program/src/tag_registry.c and program/idl/tag_registry.json; the program tests check
 * all three agree.
 */
export const REGISTRY_ERRORS = [
  { code: 6000, name: 'TagTooShort', msg: 'Tag is shorter than 3 bytes' },
  { code: 6001, name: 'TagTooLong', msg: 'Tag is longer than 32 bytes' },
  { code: 6002, name: 'TagInvalidChar', msg: 'Tag may only contain a-z, 0-9 and _' },
  { code: 6003, name: 'TagInvalidEdge', msg: 'Tag may not start or end with _' },
  { code: 6004, name: 'InvalidInstructionData', msg: 'Instruction data is not a register_tag call' },
  { code: 6005, name: 'NotEnoughAccounts', msg: 'register_tag needs 4 accounts' },
  { code: 6006, name: 'OwnerNotSigner', msg: 'Owner must sign' },
  { code: 6007, name: 'FeePayerNotSigner', msg: 'Fee payer must sign' },
  { code: 6008, name: 'FeePayerNotWritable', msg: 'Fee payer must be writable' },
  { code: 6009, name: 'TagRecordNotWritable', msg: 'Tag record must be writable' },
  { code: 6010, name: 'InvalidTagRecordAddress', msg: 'Tag record is not the PDA ["tag", tag]' },
  { code: 6011, name: 'InvalidSystemProgram', msg: 'Account 3 must be the System Program' },
  { code: 6012, name: 'AlreadyRegistered', msg: 'Tag is already registered' },
] as const;

/** One row of the error table: `code` is what the program returns as `Custom(code)`. */
export type RegistryError = (typeof REGISTRY_ERRORS)[number];
export type RegistryErrorName = RegistryError['name'];

const BY_CODE = new Map<number, RegistryError>(REGISTRY_ERRORS.map((e) => [e.code, e]));
const BY_NAME = new Map<string, RegistryError>(REGISTRY_ERRORS.map((e) => [e.name, e]));

/** The error's name for a custom error code, or `null` when the code is not ours. */
export function registryErrorName(code: number): RegistryErrorName | null {
  return BY_CODE.get(code)?.name ?? null;
}

/** The custom error code for a name; throws on an unknown name (a typo in code, not input). */
export function registryErrorCode(name: RegistryErrorName): number {
  const entry = BY_NAME.get(name);
  if (!entry) throw new Error(`unknown registry error ${name}`);
  return entry.code;
}
