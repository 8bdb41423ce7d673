/**
 * The registry's error in whatever a client threw, recognised by its code, never by message
 * text. Every shape is brought to kit's `SolanaError` with
 * SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM (`context.code`, `context.index`), then judged by
 * kit's `isProgramError` (what the generated `isTagRegistryError` calls): a kit SolanaError as it is, the JSON-RPC
 * `{ InstructionError: [index, { Custom: code }] }` through kit's
 * `getSolanaErrorFromTransactionError`, a LiteSVM failure through its structured `err()`.
 * web3.js v1's SendTransactionError keeps neither: it carries the simulation's logs, where the
 * runtime reports a program's failure as one fixed line naming the program and the code.
 */
import {
  getSolanaErrorFromTransactionError,
  isProgramError,
  isSolanaError,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SolanaError,
  type Address,
} from '@solana/kit';
import * as generatedErrors from './generated/errors/tagRegistry';
import { type TagRegistryError } from './generated';

/** Every code of the IDL's error table, from the generated constants. */
export const TAG_REGISTRY_ERROR_CODES: ReadonlySet<number> = new Set(
  Object.entries(generatedErrors)
    .filter(([name, value]) => name.startsWith('TAG_REGISTRY_ERROR__') && typeof value === 'number')
    .map(([, value]) => value as number),
);

type CustomError = SolanaError<typeof SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM>;

/** An address as base58 text, or anything that prints itself so (web3.js `PublicKey`). */
type AddressLike = string | { toBase58(): string };

/**
 * Where an error may have come from. Without `programAddress`, any code of our table counts,
 * from whichever program returned it (other Anchor programs also number from 6000). With it,
 * a code counts only when it can be traced to that program: through the runtime's failure
 * line in the logs, or through the failing instruction's index and `instructionPrograms`.
 */
export interface TagRegistryErrorSource {
  programAddress?: AddressLike;
  /** The program of each top-level instruction of the transaction, in order. */
  instructionPrograms?: readonly AddressLike[];
}

const MAX_DEPTH = 5;
/** The runtime's line when a program returns Custom(n); the first one names the origin. */
const FAILED_LOG = /^Program (\w+) failed: custom program error: 0x([0-9a-fA-F]+)$/;

const base58Of = (address: AddressLike) => (typeof address === 'string' ? address : address.toBase58());

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

function customError(code: number, index: number): CustomError {
  return new SolanaError(SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM, { code, index });
}

/** The JSON-RPC transaction error, as kit reads it. */
function fromRpcShape(value: Record<string, unknown>): CustomError | null {
  if (!Array.isArray(value.InstructionError)) return null;
  const error = getSolanaErrorFromTransactionError(value);
  return isSolanaError(error, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM) ? error : null;
}

/** LiteSVM's FailedTransactionMetadata (err() → TransactionErrorInstructionError) or that error itself. */
function fromLiteSvm(value: Record<string, unknown>): CustomError | null {
  const txError = 'index' in value ? value : asRecord(callIfFunction(value.err, value));
  if (!txError || typeof txError.index !== 'number') return null;
  const instructionError = asRecord(callIfFunction(txError.err, txError));
  return instructionError && typeof instructionError.code === 'number'
    ? customError(instructionError.code, txError.index)
    : null;
}

function liteSvmLogs(value: Record<string, unknown>): unknown {
  const meta = asRecord(callIfFunction(value.meta, value));
  return meta ? callIfFunction(meta.logs, meta) : callIfFunction(value.logs, value);
}

/** The runtime's failure line: the program that failed first, and its code. */
function fromLogs(logs: unknown): { code: number; program: string } | null {
  if (!Array.isArray(logs)) return null;
  for (const line of logs) {
    const match = typeof line === 'string' ? FAILED_LOG.exec(line) : null;
    if (match) return { code: parseInt(match[2]!, 16), program: match[1]! };
  }
  return null;
}

interface Found {
  error: CustomError | null;
  /** The program that returned the code, when logs say. */
  program?: string;
  code: number;
}

/**
 * Every shape we meet, outermost first (logs, then the structured error), then what the value
 * wraps (`cause`, a wallet adapter's `error`, `err`, `value`).
 */
function find(value: unknown, depth: number): Found | null {
  if (isSolanaError(value, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)) return { error: value, code: value.context.code };
  const record = asRecord(value);
  if (!record || depth > MAX_DEPTH) return null;
  const logged =
    fromLogs(record.logs) ??
    fromLogs(record.transactionLogs) ??
    fromLogs(asRecord(record.transactionError)?.logs) ??
    fromLogs(liteSvmLogs(record));
  const structured = fromRpcShape(record) ?? fromLiteSvm(record);
  if (logged) return { error: structured, program: logged.program, code: logged.code };
  if (structured) return { error: structured, code: structured.context.code };
  for (const inner of [record.cause, record.error, record.err, record.value]) {
    const found = find(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The registry error code carried by `err` (a kit SolanaError, an RPC
 * `{ InstructionError: [i, { Custom: n }] }`, a LiteSVM result, a web3.js
 * SendTransactionError's logs, or any of those wrapped in `cause` / `error`), or `null` when
 * there is none, when the code is not in the IDL's table, or when `source` rules out its origin.
 */
export function tagRegistryErrorOf(err: unknown, source: TagRegistryErrorSource = {}): TagRegistryError | null {
  const found = find(err, 0);
  if (!found || !TAG_REGISTRY_ERROR_CODES.has(found.code)) return null;
  const code = found.code as TagRegistryError;
  if (!source.programAddress) return code;
  const ours = base58Of(source.programAddress) as Address;
  if (found.program !== undefined) return found.program === ours ? code : null;
  if (!found.error || !source.instructionPrograms) return null;
  const instructions = source.instructionPrograms.map((program) => ({ programAddress: base58Of(program) as Address }));
  // kit's isProgramError, which the generated isTagRegistryError calls with the IDL's address:
  // ours may be another deployment of the program.
  return isProgramError(found.error, { instructions }, ours, code) ? code : null;
}

/** Whether `err` carries the registry error `code` (see `tagRegistryErrorOf`). */
export function hasTagRegistryError(err: unknown, code: TagRegistryError, source?: TagRegistryErrorSource): boolean {
  return tagRegistryErrorOf(err, source) === code;
}
