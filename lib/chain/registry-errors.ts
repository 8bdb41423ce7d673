/**
 * The tag registry's custom error codes (Anchor convention: from 6000). The same table is
 * in program/src/tag_registry.c and program/idl/tag_registry.json; the program tests check
 * all three agree. Codes are append-only: a client compiled against an older table still
 * reads every code it knows the same way.
 *
 * This module imports nothing, so the browser bundle can use the matcher below.
 */
export const REGISTRY_ERRORS = [
  { code: 6000, name: 'TagTooShort', msg: 'Tag is shorter than 3 bytes' },
  { code: 6001, name: 'TagTooLong', msg: 'Tag is longer than 32 bytes' },
  { code: 6002, name: 'TagInvalidChar', msg: 'Tag may only contain a-z, 0-9 and _' },
  { code: 6003, name: 'TagInvalidEdge', msg: 'Tag may not start or end with _' },
  {
    code: 6004,
    name: 'InvalidInstructionData',
    msg: 'Instruction data is not a call of this program (discriminator or length)',
  },
  { code: 6005, name: 'NotEnoughAccounts', msg: 'The instruction has fewer accounts than its ABI lists' },
  { code: 6006, name: 'OwnerNotSigner', msg: 'Owner must sign' },
  { code: 6007, name: 'FeePayerNotSigner', msg: 'Fee payer must sign' },
  { code: 6008, name: 'FeePayerNotWritable', msg: 'Fee payer must be writable' },
  { code: 6009, name: 'TagRecordNotWritable', msg: 'Tag record must be writable' },
  { code: 6010, name: 'InvalidTagRecordAddress', msg: 'Tag record is not the PDA ["tag", tag]' },
  { code: 6011, name: 'InvalidSystemProgram', msg: 'Account 3 must be the System Program' },
  { code: 6012, name: 'AlreadyRegistered', msg: 'Tag is already registered' },
  { code: 6013, name: 'TagRecordNotProgramOwned', msg: 'Tag record is not owned by the tag registry program' },
  { code: 6014, name: 'NotATagRecord', msg: 'Tag record data is not a TagRecord (size, discriminator or tag length)' },
  { code: 6015, name: 'NotTagOwner', msg: "Signer is not the tag's owner" },
  { code: 6016, name: 'NewOwnerNotSigner', msg: 'The new owner must sign to accept' },
  { code: 6017, name: 'NotPendingOwner', msg: 'Signer is not the pending owner of the tag' },
  { code: 6018, name: 'NoOfferToAccept', msg: 'No transfer offer stands to accept' },
  { code: 6019, name: 'NoOfferToCancel', msg: 'No transfer offer stands to cancel' },
  { code: 6020, name: 'NewOwnerIsZero', msg: 'A transfer may not be offered to the zero address' },
  { code: 6021, name: 'NewOwnerIsOwner', msg: 'The owner may not offer the tag to itself' },
  { code: 6022, name: 'WalletIsZero', msg: 'The payout wallet may not be the zero address' },
  { code: 6023, name: 'ReceiverNotWritable', msg: 'Receiver must be writable' },
  { code: 6024, name: 'ReceiverIsTagRecord', msg: 'Receiver may not be the tag record itself' },
  { code: 6025, name: 'WalletNotSigner', msg: 'The payout wallet must sign' },
  { code: 6026, name: 'WalletAccountMismatch', msg: 'The wallet account is not the wallet argument' },
  { code: 6027, name: 'WalletNotSystemOwned', msg: 'The payout wallet must be an account of the System Program' },
  { code: 6028, name: 'WalletAccountMissing', msg: 'The payout wallet account is missing: it comes last, and signs' },
  { code: 6029, name: 'TagResting', msg: 'The released tag rests for 30 days: only its previous owner may take it' },
  { code: 6030, name: 'TagReleased', msg: 'The tag was released: register it again before any other call' },
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

/** An address as base58 text, or anything that prints itself so (web3.js `PublicKey`, kit `Address`). */
type AddressLike = string | { toBase58(): string };

/**
 * Where an error may have come from. Without it, any custom code of our table counts, from
 * whichever program returned it (other Anchor programs also number from 6000). With
 * `programId`, a code counts only when it can be traced to that program: through the
 * logs ("Program <id> failed: custom program error: 0x…"), or through the failing
 * instruction's index and `instructionProgramIds`. A code that cannot be traced does not count.
 */
export interface RegistryErrorSource {
  programId?: AddressLike;
  /** The program of each top-level instruction of the transaction, in order. */
  instructionProgramIds?: readonly AddressLike[];
}

/** A custom error found in some error value: its code, and what is known of its origin. */
interface CustomErrorFound {
  code: number;
  /** Top-level instruction index, when the value says. */
  index?: number;
  /** The program that returned the code, when logs say. */
  program?: string;
}

const MAX_DEPTH = 5;
/** solana-kit's SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM (its `context` holds `code` and `index`). */
const KIT_INSTRUCTION_ERROR_CUSTOM = 4615026;
/** The runtime's own log line when a program returns Custom(n): the first one names the origin. */
const FAILED_LOG = /^Program (\w+) failed: custom program error: 0x([0-9a-fA-F]+)$/;
/** The RPC's preflight text when no logs came with it ("Error processing Instruction 0: custom program error: 0x1770"). */
const PREFLIGHT_TEXT = /Error processing Instruction (\d+): custom program error: 0x([0-9a-fA-F]+)/;

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function callIfFunction(value: unknown, self: unknown): unknown {
  if (typeof value !== 'function') return undefined;
  try {
    return (value as (this: unknown) => unknown).call(self);
  } catch {
    return undefined;
  }
}

function fromLogs(logs: unknown): CustomErrorFound | null {
  if (!Array.isArray(logs)) return null;
  for (const line of logs) {
    const match = typeof line === 'string' ? FAILED_LOG.exec(line) : null;
    if (match) return { code: parseInt(match[2], 16), program: match[1] };
  }
  return null;
}

/** `{ InstructionError: [index, { Custom: code }] }`, the JSON-RPC shape of a transaction error. */
function fromRpcShape(value: unknown): CustomErrorFound | null {
  const pair = asRecord(value)?.InstructionError;
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number') return null;
  const custom = asRecord(pair[1])?.Custom;
  return typeof custom === 'number' ? { code: custom, index: pair[0] } : null;
}

/** LiteSVM's FailedTransactionMetadata (err() → TransactionErrorInstructionError) or that error itself. */
function fromLiteSvm(value: Record<string, unknown>): CustomErrorFound | null {
  const txError = 'index' in value ? value : asRecord(callIfFunction(value.err, value));
  if (!txError || typeof txError.index !== 'number') return null;
  const instructionError = asRecord(callIfFunction(txError.err, txError));
  if (!instructionError || typeof instructionError.code !== 'number') return null;
  return { code: instructionError.code, index: txError.index };
}

function liteSvmLogs(value: Record<string, unknown>): unknown {
  const meta = asRecord(callIfFunction(value.meta, value));
  return meta ? callIfFunction(meta.logs, meta) : callIfFunction(value.logs, value);
}

/**
 * Every shape we meet, outermost first: logs (web3.js SendTransactionError, simulation
 * results, LiteSVM), the RPC's `InstructionError`, LiteSVM objects, kit's SolanaError; then
 * what the value wraps (`cause`, a wallet adapter's `error`, `err`, `value`).
 */
function findCustomError(value: unknown, depth: number): CustomErrorFound | null {
  const record = asRecord(value);
  if (!record || depth > MAX_DEPTH) return null;
  const logsFound =
    fromLogs(record.logs) ??
    fromLogs(record.transactionLogs) ??
    fromLogs(asRecord(record.transactionError)?.logs) ??
    fromLogs(asRecord(record.context)?.logs) ??
    fromLogs(liteSvmLogs(record));
  const structured = fromRpcShape(record) ?? fromLiteSvm(record) ?? fromKit(record);
  if (logsFound) return { ...logsFound, index: structured?.index };
  if (structured) return structured;
  for (const inner of [record.cause, record.error, record.err, record.value]) {
    const found = findCustomError(inner, depth + 1);
    if (found) return found;
  }
  const message = typeof record.message === 'string' ? PREFLIGHT_TEXT.exec(record.message) : null;
  return message ? { code: parseInt(message[2], 16), index: Number(message[1]) } : null;
}

function fromKit(value: Record<string, unknown>): CustomErrorFound | null {
  const context = asRecord(value.context);
  if (!context || context.__code !== KIT_INSTRUCTION_ERROR_CUSTOM || typeof context.code !== 'number') return null;
  return { code: context.code, index: typeof context.index === 'number' ? context.index : undefined };
}

const base58Of = (address: AddressLike) => (typeof address === 'string' ? address : address.toBase58());

function fromSource(found: CustomErrorFound, source: RegistryErrorSource | undefined): boolean {
  if (!source?.programId) return true;
  const ours = base58Of(source.programId);
  if (found.program !== undefined) return found.program === ours;
  const byIndex = found.index !== undefined ? source.instructionProgramIds?.[found.index] : undefined;
  return byIndex !== undefined && base58Of(byIndex) === ours;
}

/**
 * The registry error carried by `err` (a web3.js SendTransactionError or its logs, an RPC
 * `{ InstructionError: [i, { Custom: n }] }`, a LiteSVM result, a kit SolanaError, or any
 * of those wrapped in `cause` / `error`), matched by code through the one table, never by
 * message text. `null` when there is none, or when `source` rules out its origin.
 */
export function registryErrorOf(err: unknown, source?: RegistryErrorSource): RegistryError | null {
  const found = findCustomError(err, 0);
  if (!found || !fromSource(found, source)) return null;
  return BY_CODE.get(found.code) ?? null;
}

/** Codama-style check: `isTagRegistryError(err, 'AlreadyRegistered')`. See `registryErrorOf`. */
export function isTagRegistryError(err: unknown, name: RegistryErrorName, source?: RegistryErrorSource): boolean {
  return registryErrorOf(err, source)?.name === name;
}
