import bs58 from 'bs58';
import type { MessageAccountKeys, PublicKey, VersionedTransactionResponse } from '@solana/web3.js';
import { isCanonicalTag } from '@/lib/core/tag';
import { containsBytes } from '@solana/kit';
import {
  parseRegistryInstructionData,
  REGISTER_TAG_DISCRIMINATOR,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';
import { parseWeb3RegistryInstruction } from '@/packages/tag-registry/src/web3js';

/** The newest transaction version the indexer reads (v1 is live on mainnet, DESIGN "Web"). */
export const MAX_SUPPORTED_TRANSACTION_VERSION = 1;

/** What `decodeTransaction` needs of a getTransaction answer. */
export type TransactionForIndexing = Pick<VersionedTransactionResponse, 'slot' | 'blockTime' | 'meta' | 'transaction'>;

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
  /** Whether any instruction, top-level or inner, is one of `programId`'s. */
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
 * The instructions of `programId` in a transaction, top-level AND inner (a program that calls
 * ours through CPI), in execution order: the records they touch, and the register_tag ones
 * whose data or accounts are malformed. It does not look at `meta.err`: the caller decides
 * what a failed transaction means. Other instructions of ours are not checked further (the
 * record they touch is re-read anyway). Throws IncompleteTransactionError when the answer is
 * incomplete, and any other error when the transaction cannot be read at all.
 */
export function decodeTransaction(tx: TransactionForIndexing, programId: PublicKey): DecodedTransaction {
  const keys = accountKeysOf(tx);
  const raw: RawInstruction[] = [];
  const inner = new Map<number, RawInstruction[]>();
  for (const group of tx.meta?.innerInstructions ?? []) {
    inner.set(
      group.index,
      group.instructions.map((ix, i) => ({
        programIdIndex: ix.programIdIndex,
        accounts: ix.accounts,
        data: bs58.decode(ix.data),
        where: `inner ${group.index}.${i}`,
      })),
    );
  }
  tx.transaction.message.compiledInstructions.forEach((ix, i) => {
    raw.push({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: ix.data,
      where: `instruction ${i}`,
    });
    raw.push(...(inner.get(i) ?? []));
  });

  const decoded: DecodedTransaction = { malformed: [], invokesProgram: false, touched: [] };
  const touched = new Set<string>();
  for (const ix of raw) {
    if (!keys.get(ix.programIdIndex)?.equals(programId)) continue;
    decoded.invokesProgram = true;
    const record = ix.accounts.length > 0 ? keys.get(ix.accounts[0]!) : undefined;
    if (record) touched.add(record.toBase58());
    if (!containsBytes(ix.data, REGISTER_TAG_DISCRIMINATOR, 0)) continue;
    const accountKeys = ix.accounts.map((index) => keys.get(index));
    const parsed = accountKeys.every((key) => key !== undefined)
      ? parseWeb3RegistryInstruction(programId, ix.data, accountKeys)
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

function accountKeysOf(tx: TransactionForIndexing): MessageAccountKeys {
  const message = tx.transaction.message;
  if (message.version === 0) {
    const loaded = tx.meta?.loadedAddresses;
    if (message.addressTableLookups.length > 0 && !loaded) {
      throw new IncompleteTransactionError('the node did not resolve its address lookup tables');
    }
    return message.getAccountKeys({ accountKeysFromLookups: loaded ?? undefined });
  }
  return message.getAccountKeys();
}
