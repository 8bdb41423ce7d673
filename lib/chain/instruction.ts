/**
 * The program's six instructions (DESIGN.md "ABI"): one codec each for the data, the
 * account metas in ABI order, and the decoding the indexer and tests use. Anchor
 * conventions: data = sha256("global:<name>")[0..8] ‖ borsh arguments.
 */
import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { readonly, signer, writable, writableSigner } from '@/lib/chain/account-meta';
import { findTagRecordAddress } from './pda';

/** sha256("global:register_tag")[0..8], Anchor's instruction discriminator. */
export const REGISTER_TAG_DISCRIMINATOR = Uint8Array.from([0x4a, 0x1d, 0x0f, 0x63, 0xf4, 0xa6, 0xa0, 0x2a]);
/** sha256("global:set_wallet")[0..8]. */
export const SET_WALLET_DISCRIMINATOR = Uint8Array.from([0xa0, 0x9e, 0x82, 0x4b, 0xc2, 0x61, 0x27, 0x72]);
/** sha256("global:offer_transfer")[0..8]. */
export const OFFER_TRANSFER_DISCRIMINATOR = Uint8Array.from([0x27, 0x6d, 0x6e, 0xe7, 0x5f, 0xb1, 0x0f, 0x5d]);
/** sha256("global:cancel_transfer")[0..8]. */
export const CANCEL_TRANSFER_DISCRIMINATOR = Uint8Array.from([0x32, 0x20, 0x46, 0x82, 0x8e, 0x29, 0x6f, 0xaf]);
/** sha256("global:accept_transfer")[0..8]. */
export const ACCEPT_TRANSFER_DISCRIMINATOR = Uint8Array.from([0x5e, 0xf9, 0xab, 0x3e, 0xd0, 0x78, 0x31, 0x6e]);
/** sha256("global:release_tag")[0..8]. */
export const RELEASE_TAG_DISCRIMINATOR = Uint8Array.from([0x7b, 0xd5, 0xd9, 0x1e, 0xf3, 0x6c, 0xac, 0x95]);

/** Every instruction's name and discriminator, in the IDL's order. */
export const INSTRUCTION_DISCRIMINATORS = {
  register_tag: REGISTER_TAG_DISCRIMINATOR,
  set_wallet: SET_WALLET_DISCRIMINATOR,
  offer_transfer: OFFER_TRANSFER_DISCRIMINATOR,
  cancel_transfer: CANCEL_TRANSFER_DISCRIMINATOR,
  accept_transfer: ACCEPT_TRANSFER_DISCRIMINATOR,
  release_tag: RELEASE_TAG_DISCRIMINATOR,
} as const;

export type RegistryInstructionName = keyof typeof INSTRUCTION_DISCRIMINATORS;

/** Each instruction's accounts by name, in ABI order (the IDL's names in camelCase). */
export const INSTRUCTION_ACCOUNTS = {
  register_tag: ['tagRecord', 'owner', 'feePayer', 'systemProgram', 'wallet'],
  set_wallet: ['tagRecord', 'owner', 'wallet'],
  offer_transfer: ['tagRecord', 'owner'],
  cancel_transfer: ['tagRecord', 'owner'],
  accept_transfer: ['tagRecord', 'newOwner'],
  release_tag: ['tagRecord', 'owner', 'receiver'],
} as const satisfies Record<RegistryInstructionName, readonly string[]>;

/** Decoded instruction data: which instruction, and its arguments. */
export type RegistryInstructionData =
  | { name: 'register_tag'; tag: string; wallet: PublicKey }
  | { name: 'set_wallet'; wallet: PublicKey }
  | { name: 'offer_transfer'; newOwner: PublicKey }
  | { name: 'cancel_transfer' }
  | { name: 'accept_transfer' }
  | { name: 'release_tag' };

/** Decoded `register_tag` arguments. `tag` is whatever bytes were sent, decoded as UTF-8. */
export interface RegisterTagArgs {
  tag: string;
  wallet: PublicKey;
}

const PUBKEY_ARG_BYTES = 8 + 32;

function withPubkey(discriminator: Uint8Array, key: PublicKey): Buffer {
  const data = Buffer.alloc(PUBKEY_ARG_BYTES);
  data.set(discriminator, 0);
  data.set(key.toBytes(), 8);
  return data;
}

/** discriminator ‖ borsh string tag (u32 LE length + UTF-8 bytes) ‖ wallet (32 bytes). */
export function encodeRegisterTagData(tag: string, wallet: PublicKey): Buffer {
  const tagBytes = Buffer.from(tag, 'utf8');
  const data = Buffer.alloc(8 + 4 + tagBytes.length + 32);
  data.set(REGISTER_TAG_DISCRIMINATOR, 0);
  data.writeUInt32LE(tagBytes.length, 8);
  data.set(tagBytes, 12);
  data.set(wallet.toBytes(), 12 + tagBytes.length);
  return data;
}

/** The data of any instruction: discriminator ‖ borsh arguments. */
export function encodeInstructionData(ix: RegistryInstructionData): Buffer {
  switch (ix.name) {
    case 'register_tag':
      return encodeRegisterTagData(ix.tag, ix.wallet);
    case 'set_wallet':
      return withPubkey(SET_WALLET_DISCRIMINATOR, ix.wallet);
    case 'offer_transfer':
      return withPubkey(OFFER_TRANSFER_DISCRIMINATOR, ix.newOwner);
    default:
      return Buffer.from(INSTRUCTION_DISCRIMINATORS[ix.name]);
  }
}

/** Whether instruction data begins with an instruction's discriminator (the indexer asks this too). */
export function hasDiscriminator(data: Uint8Array, discriminator: Uint8Array): boolean {
  if (data.length < discriminator.length) return false;
  for (let i = 0; i < discriminator.length; i++) if (data[i] !== discriminator[i]) return false;
  return true;
}

/**
 * Decodes `register_tag` data with the program's own strictness: the discriminator, the
 * exact length (no truncation, no trailing bytes), and the tag as valid UTF-8. Never throws:
 * anything else is `null`. The tag rule itself is not checked here.
 */
export function decodeRegisterTagData(bytes: Uint8Array): RegisterTagArgs | null {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 + 4 + 32) return null;
  if (!hasDiscriminator(bytes, REGISTER_TAG_DISCRIMINATOR)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tagLength = view.getUint32(8, true);
  if (bytes.length !== 8 + 4 + tagLength + 32) return null;
  let tag: string;
  try {
    tag = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(12, 12 + tagLength));
  } catch {
    return null;
  }
  return { tag, wallet: new PublicKey(bytes.subarray(12 + tagLength)) };
}

/**
 * Which instruction `data` calls and its arguments, with the program's strictness (exact
 * lengths); `null` for anything the program would refuse as InvalidInstructionData. Never
 * throws. Argument values (a zero key, a tag outside the rules) are the program's to judge.
 */
export function decodeInstruction(data: Uint8Array): RegistryInstructionData | null {
  if (!(data instanceof Uint8Array) || data.length < 8) return null;
  if (hasDiscriminator(data, REGISTER_TAG_DISCRIMINATOR)) {
    const args = decodeRegisterTagData(data);
    return args && { name: 'register_tag', ...args };
  }
  if (data.length === PUBKEY_ARG_BYTES) {
    const key = () => new PublicKey(data.subarray(8));
    if (hasDiscriminator(data, SET_WALLET_DISCRIMINATOR)) return { name: 'set_wallet', wallet: key() };
    if (hasDiscriminator(data, OFFER_TRANSFER_DISCRIMINATOR)) return { name: 'offer_transfer', newOwner: key() };
  }
  if (data.length === 8) {
    for (const name of ['cancel_transfer', 'accept_transfer', 'release_tag'] as const) {
      if (hasDiscriminator(data, INSTRUCTION_DISCRIMINATORS[name])) return { name };
    }
  }
  return null;
}

/** The accounts of an instruction by their ABI names, e.g. `{ tagRecord, owner, receiver }`. */
export type InstructionAccounts<N extends RegistryInstructionName> = Record<
  (typeof INSTRUCTION_ACCOUNTS)[N][number],
  PublicKey
>;

/** A whole decoded instruction: its data, and its accounts by name. */
export type DecodedRegistryInstruction = {
  [N in RegistryInstructionName]: Extract<RegistryInstructionData, { name: N }> & { accounts: InstructionAccounts<N> };
}[RegistryInstructionName];

/**
 * Decodes an instruction of the program from its data and its account keys in order (the
 * tests read built transactions back with it; the indexer does not: it re-reads the records
 * an instruction names). `null` when the data does not decode or when there are fewer
 * accounts than the ABI lists (the program refuses both). Extra accounts are ignored, as the
 * program ignores them.
 */
export function decodeRegistryInstruction(
  data: Uint8Array,
  accountKeys: readonly PublicKey[],
): DecodedRegistryInstruction | null {
  const decoded = decodeInstruction(data);
  if (!decoded) return null;
  const names: readonly string[] = INSTRUCTION_ACCOUNTS[decoded.name];
  if (accountKeys.length < names.length) return null;
  const accounts = Object.fromEntries(names.map((name, i) => [name, accountKeys[i]]));
  return { ...decoded, accounts } as DecodedRegistryInstruction;
}

export interface RegisterTagAccounts {
  programId: PublicKey;
  /** Canonical tag; it is also the PDA seed. */
  tag: string;
  /** Signs; recorded as the tag's owner. */
  owner: PublicKey;
  /** Payout wallet stored in the record; signs (it may equal `owner`). */
  wallet: PublicKey;
  /** Signs and pays rent; may equal `owner`. */
  feePayer: PublicKey;
}

/** The `register_tag` instruction, accounts in ABI order: tag_record, owner, fee_payer, System Program, wallet (s). */
export function registerTagInstruction({
  programId,
  tag,
  owner,
  wallet,
  feePayer,
}: RegisterTagAccounts): TransactionInstruction {
  const [tagRecord] = findTagRecordAddress(tag, programId);
  return new TransactionInstruction({
    programId,
    keys: [
      writable(tagRecord),
      signer(owner),
      writableSigner(feePayer),
      readonly(SystemProgram.programId),
      signer(wallet),
    ],
    data: encodeRegisterTagData(tag, wallet),
  });
}

/** What every lifecycle instruction takes: the program and the record (`findTagRecordAddress(tag)`). */
interface RecordCall {
  programId: PublicKey;
  tagRecord: PublicKey;
}

/** `set_wallet(wallet)`: tag_record (w), owner (s), wallet (s). */
export function setWalletInstruction({
  programId,
  tagRecord,
  owner,
  wallet,
}: RecordCall & { owner: PublicKey; wallet: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [writable(tagRecord), signer(owner), signer(wallet)],
    data: encodeInstructionData({ name: 'set_wallet', wallet }),
  });
}

/** `offer_transfer(new_owner)`: tag_record (w), owner (s). */
export function offerTransferInstruction({
  programId,
  tagRecord,
  owner,
  newOwner,
}: RecordCall & { owner: PublicKey; newOwner: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [writable(tagRecord), signer(owner)],
    data: encodeInstructionData({ name: 'offer_transfer', newOwner }),
  });
}

/** `cancel_transfer`: tag_record (w), owner (s). */
export function cancelTransferInstruction({
  programId,
  tagRecord,
  owner,
}: RecordCall & { owner: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [writable(tagRecord), signer(owner)],
    data: encodeInstructionData({ name: 'cancel_transfer' }),
  });
}

/** `accept_transfer`: tag_record (w), new_owner (s), the pending owner. */
export function acceptTransferInstruction({
  programId,
  tagRecord,
  newOwner,
}: RecordCall & { newOwner: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [writable(tagRecord), signer(newOwner)],
    data: encodeInstructionData({ name: 'accept_transfer' }),
  });
}

/**
 * `release_tag`: tag_record (w), owner (s), receiver (w). The receiver may be the owner: the
 * transaction then holds one account, signer and writable (web3.js merges the flags).
 */
export function releaseTagInstruction({
  programId,
  tagRecord,
  owner,
  receiver,
}: RecordCall & { owner: PublicKey; receiver: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [writable(tagRecord), signer(owner), writable(receiver)],
    data: encodeInstructionData({ name: 'release_tag' }),
  });
}
