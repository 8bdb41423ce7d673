import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { findTagRecordAddress } from './pda';

/** sha256("global:register_tag")[0..8], Anchor's instruction discriminator. */
export const REGISTER_TAG_DISCRIMINATOR = Uint8Array.from([0x4a, 0x1d, 0x0f, 0x63, 0xf4, 0xa6, 0xa0, 0x2a]);

/** Decoded `register_tag` arguments. `tag` is whatever bytes were sent, decoded as UTF-8. */
export interface RegisterTagArgs {
  tag: string;
  wallet: PublicKey;
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

/**
 * Decodes `register_tag` data with the program's own strictness: the discriminator, the
 * exact length (no truncation, no trailing bytes), and the tag as valid UTF-8. Never throws:
 * anything else is `null`. The tag rule itself is not checked here.
 */
export function decodeRegisterTagData(bytes: Uint8Array): RegisterTagArgs | null {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 + 4 + 32) return null;
  for (let i = 0; i < 8; i++) if (bytes[i] !== REGISTER_TAG_DISCRIMINATOR[i]) return null;
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

export interface RegisterTagAccounts {
  programId: PublicKey;
  /** Canonical tag; it is also the PDA seed. */
  tag: string;
  /** Signs; recorded as the tag's owner. */
  owner: PublicKey;
  /** Payout wallet stored in the record. */
  wallet: PublicKey;
  /** Signs and pays rent; may equal `owner`. */
  feePayer: PublicKey;
}

/** The `register_tag` instruction, accounts in ABI order: tag_record, owner, fee_payer, System Program. */
export function registerTagInstruction({ programId, tag, owner, wallet, feePayer }: RegisterTagAccounts): TransactionInstruction {
  const [tagRecord] = findTagRecordAddress(tag, programId);
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: tagRecord, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
      { pubkey: feePayer, isSigner: true, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
    ],
    data: encodeRegisterTagData(tag, wallet),
  });
}
