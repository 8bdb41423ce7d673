import bs58 from 'bs58';
import { containsBytes, type Address } from '@solana/kit';
import { isCanonicalTag } from '@/lib/core/tag';
import {
  parseRegistryInstruction,
  parseRegistryInstructionData,
  REGISTER_TAG_DISCRIMINATOR,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';

/** The newest transaction version the indexer reads (v1 is live on mainnet, DESIGN "Web"). */
export const MAX_SUPPORTED_TRANSACTION_VERSION = 1;

/** An instruction as getTransaction's `json` encoding gives it: indexes into the keys, data in base58. */
export interface JsonInstruction {
  programIdIndex: number;
  accounts: readonly number[];
  data: string;
}

/**
 * What `decodeTransaction` and the indexer need of a getTransaction answer (`encoding: 'json'`),
 * slots and times as numbers whichever way it was read (kit's RPC gives bigints, a batch's
 * JSON numbers). `loadedAddresses` are the keys the message's lookup tables resolved to.
 */
export interface TransactionForIndexing {
  slot: number;
  blockTime: number | null;
  meta: {
    err: unknown;
    innerInstructions?: readonly { index: number; instructions: readonly JsonInstruction[] }[] | null;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null;
  } | null;
  transaction: {
    message: {
      accountKeys: readonly string[];
      instructions: readonly JsonInstruction[];
      addressTableLookups?: readonly unknown[] | null;
    };
  };
}

interface RawInstruction {
  programIdIndex: number;
  accounts: readonly number[];
  data: Uint8Array;
  where: string;
}

/** What a transaction holds for the indexer: see `decodeTransaction`. */
export interface DecodedTransaction {
  /** Instructions of ours with the register_tag discriminator that do not decode, with why. */
  malformed: string[];
  /** Whether any instruction, top-level or inner, is one of the program's. */
  invokesProgram: boolean;
  /**
   * The tag records the transaction's instructions of ours name (account 0 of every one of
   * them, whatever the instruction: the ABI puts the record first), base58, each once. The
   * indexer re-reads these records rather than replaying the instructions (DESIGN "Indexer").
   */
  touched: string[];
}

/**
 * The node's answer lacks what decoding needs (lookup-table addresses not resolved): asking
 * again, or another node, may give the full answer, so the indexer defers the transaction
 * rather than passing over it.
 */
export class IncompleteTransactionError extends Error {
  override name = 'IncompleteTransactionError';
}

/**
 * The instructions of the program at `programAddress` in a transaction, top-level AND inner (a program that calls
 * ours through CPI), in execution order: the records they touch, and the register_tag ones
 * whose data or accounts are malformed. It does not look at `meta.err`: the caller decides
 * what a failed transaction means. Other instructions of ours are not checked further (the
 * record they touch is re-read anyway). Throws IncompleteTransactionError when the answer is
 * incomplete, and any other error when the transaction cannot be read at all.
 */
export function decodeTransaction(tx: TransactionForIndexing, programAddress: Address): DecodedTransaction {
  const keys = accountKeysOf(tx);
  const raw: RawInstruction[] = [];
  const inner = new Map<number, RawInstruction[]>();
  for (const group of tx.meta?.innerInstructions ?? []) {
    inner.set(
      group.index,
      group.instructions.map((ix, i) => ({ ...rawOf(ix), where: `inner ${group.index}.${i}` })),
    );
  }
  tx.transaction.message.instructions.forEach((ix, i) => {
    raw.push({ ...rawOf(ix), where: `instruction ${i}` });
    raw.push(...(inner.get(i) ?? []));
  });

  const decoded: DecodedTransaction = { malformed: [], invokesProgram: false, touched: [] };
  const touched = new Set<string>();
  for (const ix of raw) {
    if (keys[ix.programIdIndex] !== programAddress) continue;
    decoded.invokesProgram = true;
    const record = ix.accounts.length > 0 ? keys[ix.accounts[0]!] : undefined;
    if (record) touched.add(record);
    if (!containsBytes(ix.data, REGISTER_TAG_DISCRIMINATOR, 0)) continue;
    const accountKeys = ix.accounts.map((index) => keys[index]);
    const parsed = accountKeys.every((key) => key !== undefined)
      ? parseRegistryInstruction({ programAddress, accounts: accountKeys as Address[], data: ix.data })
      : null;
    const registered = parsed?.instructionType === TagRegistryInstruction.RegisterTag ? parsed : null;
    if (registered && isCanonicalTag(registered.data.tag)) continue;
    // Why it is malformed: the arguments are read alone only for a call that did not parse whole.
    const what = registered
      ? 'a tag outside the rules'
      : parseRegistryInstructionData(ix.data)
        ? 'missing accounts'
        : 'undecodable arguments';
    decoded.malformed.push(`malformed register_tag (${ix.where}: ${what})`);
  }
  decoded.touched = [...touched];
  return decoded;
}

function rawOf(ix: JsonInstruction): Omit<RawInstruction, 'where'> {
  return { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: bs58.decode(ix.data) };
}

/** The message's keys, then those its lookup tables resolved to: writable, then read-only (the runtime's order). */
function accountKeysOf(tx: TransactionForIndexing): readonly string[] {
  const { accountKeys, addressTableLookups } = tx.transaction.message;
  if (!addressTableLookups?.length) return accountKeys;
  const loaded = tx.meta?.loadedAddresses;
  if (!loaded) throw new IncompleteTransactionError('the node did not resolve its address lookup tables');
  return [...accountKeys, ...loaded.writable, ...loaded.readonly];
}
