/**
 * The ABI for code on @solana/web3.js v1 (the browser's wallet-adapter, the app's
 * Connection, LiteSVM tests, localnet): the generated kit builders, with `PublicKey` in and a
 * v1 `TransactionInstruction` out, converted by `toWeb3Instruction`, the one adapter. The
 * bytes and account metas are the generated client's; nothing of the ABI is restated here.
 */
import {
  address,
  createNoopSigner,
  isSignerRole,
  isWritableRole,
  type Address,
  type Instruction,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  getAcceptTransferInstruction,
  getCancelTransferInstruction,
  getOfferTransferInstruction,
  getRegisterTagInstruction,
  getRegisterTagInstructionDataEncoder,
  getReleaseTagInstruction,
  getSetWalletInstruction,
  type ParsedTagRegistryInstruction,
} from './generated';
import { parseRegistryInstruction } from './instructions';
import { parseTagRecord, tagRecordBytes } from './tag-record';

/** A kit instruction as a web3.js v1 one: same program, data, and accounts with their roles. */
export function toWeb3Instruction(instruction: Instruction): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(instruction.programAddress),
    keys: (instruction.accounts ?? []).map((meta) => ({
      pubkey: new PublicKey(meta.address),
      isSigner: isSignerRole(meta.role),
      isWritable: isWritableRole(meta.role),
    })),
    data: Buffer.from(instruction.data ?? new Uint8Array()),
  });
}

const kitAddress = (key: PublicKey): Address => address(key.toBase58());
/** The builders want a signer for each signing account; building an unsigned transaction needs only its address. */
const signerOf = (key: PublicKey) => createNoopSigner(kitAddress(key));
const programOf = (programId: PublicKey) => ({ programAddress: kitAddress(programId) });

/** First seed of every tag record PDA (the IDL's const seed); the second is the tag's bytes. */
export const TAG_SEED = 'tag';
const UTF8 = new TextEncoder();

/**
 * The tag record address `["tag", tag]` and its canonical bump, synchronously (the generated
 * `findTagRecordPda` is async); tests/abi checks both agree. The tag must already be
 * canonical (≤ 32 bytes, one seed); longer input throws.
 */
export function findTagRecordAddress(tag: string, programId: PublicKey): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([UTF8.encode(TAG_SEED), UTF8.encode(tag)], programId);
}

export interface RegisterTagAccounts {
  programId: PublicKey;
  /** Canonical tag; it is also the PDA seed. */
  tag: string;
  /** Signs; recorded as the tag's owner. */
  owner: PublicKey;
  /** Payout wallet stored in the record; it signs too (account 4). */
  wallet: PublicKey;
  /** Signs and pays rent; may equal `owner`. */
  feePayer: PublicKey;
}

/** `register_tag(tag, wallet)`, accounts in ABI order. */
export function registerTagInstruction({
  programId,
  tag,
  owner,
  wallet,
  feePayer,
}: RegisterTagAccounts): TransactionInstruction {
  const [tagRecord] = findTagRecordAddress(tag, programId);
  return toWeb3Instruction(
    getRegisterTagInstruction(
      {
        tagRecord: kitAddress(tagRecord),
        owner: signerOf(owner),
        feePayer: signerOf(feePayer),
        wallet: signerOf(wallet),
        tag,
        walletArg: kitAddress(wallet),
      },
      programOf(programId),
    ),
  );
}

/** What every lifecycle instruction takes: the program and the record (`findTagRecordAddress(tag)`). */
interface RecordCall {
  programId: PublicKey;
  tagRecord: PublicKey;
}

/** A lifecycle instruction for web3.js: its generated kit builder, given the record and the other accounts. */
function recordInstruction<A>(
  { programId, tagRecord }: RecordCall,
  build: (input: A & { tagRecord: Address }, config: { programAddress: Address }) => Instruction,
  accounts: A,
): TransactionInstruction {
  return toWeb3Instruction(build({ tagRecord: kitAddress(tagRecord), ...accounts }, programOf(programId)));
}

export function setWalletInstruction(call: RecordCall & { owner: PublicKey; wallet: PublicKey }) {
  const accounts = { owner: signerOf(call.owner), wallet: signerOf(call.wallet), walletArg: kitAddress(call.wallet) };
  return recordInstruction(call, getSetWalletInstruction, accounts);
}

export function offerTransferInstruction(call: RecordCall & { owner: PublicKey; newOwner: PublicKey }) {
  const accounts = { owner: signerOf(call.owner), newOwner: kitAddress(call.newOwner) };
  return recordInstruction(call, getOfferTransferInstruction, accounts);
}

export function cancelTransferInstruction(call: RecordCall & { owner: PublicKey }): TransactionInstruction {
  return recordInstruction(call, getCancelTransferInstruction, { owner: signerOf(call.owner) });
}

export function acceptTransferInstruction(call: RecordCall & { newOwner: PublicKey }): TransactionInstruction {
  return recordInstruction(call, getAcceptTransferInstruction, { newOwner: signerOf(call.newOwner) });
}

/** `release_tag`: the receiver may be the owner (web3.js then merges the two metas into one, signer and writable). */
export function releaseTagInstruction(call: RecordCall & { owner: PublicKey; receiver: PublicKey }) {
  const accounts = { owner: signerOf(call.owner), receiver: kitAddress(call.receiver) };
  return recordInstruction(call, getReleaseTagInstruction, accounts);
}

/** `register_tag`'s data: discriminator ‖ borsh string tag ‖ wallet. */
export function encodeRegisterTagData(tag: string, wallet: PublicKey): Buffer {
  return Buffer.from(getRegisterTagInstructionDataEncoder().encode({ tag, wallet: kitAddress(wallet) }));
}

/** `parseRegistryInstruction` for an instruction whose keys are `PublicKey`s. */
export function parseWeb3RegistryInstruction(
  programId: PublicKey,
  data: ReadonlyUint8Array,
  accountKeys: readonly PublicKey[],
): ParsedTagRegistryInstruction | null {
  return parseRegistryInstruction({
    programAddress: kitAddress(programId),
    accounts: accountKeys.map(kitAddress),
    data,
  });
}

/** A tag record with `PublicKey` fields (see `TagRecordFields`). */
export interface TagRecord {
  owner: PublicKey;
  wallet: PublicKey;
  pendingOwner: PublicKey | null;
  bump: number;
  registeredAt: bigint;
  tag: string;
}

/** `parseTagRecord` with `PublicKey` fields; `null` for anything that is not a well-formed TagRecord. */
export function decodeTagRecord(data: Uint8Array): TagRecord | null {
  const record = parseTagRecord(data);
  if (!record) return null;
  const { owner, wallet, pendingOwner } = record;
  return {
    ...record,
    owner: new PublicKey(owner),
    wallet: new PublicKey(wallet),
    pendingOwner: pendingOwner && new PublicKey(pendingOwner),
  };
}

/** `tagRecordBytes` from `PublicKey` fields. */
export function encodeTagRecord(record: TagRecord): Uint8Array {
  const { owner, wallet, pendingOwner } = record;
  return tagRecordBytes({
    ...record,
    owner: kitAddress(owner),
    wallet: kitAddress(wallet),
    pendingOwner: pendingOwner && kitAddress(pendingOwner),
  });
}
