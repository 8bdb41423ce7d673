import bs58 from 'bs58';
import { createPublicKey, verify } from 'node:crypto';
import { RpcError, RPC_INVALID_PARAMS } from './errors';

/** Parsed wire form of a legacy or v0 transaction (the parts the localnet serves). */
export interface WireTransaction {
  bytes: Uint8Array;
  signatures: Uint8Array[];
  messageBytes: Uint8Array;
  version: 'legacy' | 0;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  accountKeys: string[];
  recentBlockhash: string;
  /** Byte offset of the recent blockhash inside `messageBytes` (for replaceRecentBlockhash). */
  blockhashOffset: number;
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array }[];
  addressTableLookups: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
}

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111';
const MEMO_PROGRAM_IDS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);
export const LAMPORTS_PER_SIGNATURE = 5000;
const PACKET_DATA_SIZE = 1232;

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.offset >= this.bytes.length) throw new Error('unexpected end of transaction');
    return this.bytes[this.offset++]!;
  }
  take(n: number): Uint8Array {
    if (this.offset + n > this.bytes.length) throw new Error('unexpected end of transaction');
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  compactU16(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const b = this.byte();
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new Error('invalid compact-u16');
  }
}

function invalid(message: string): RpcError {
  return new RpcError(RPC_INVALID_PARAMS, message);
}

/** Parses a message (legacy or v0) from `bytes` starting at the reader's position. */
function parseMessage(r: Reader, messageStart: number) {
  let version: 'legacy' | 0 = 'legacy';
  const first = r.byte();
  let numRequiredSignatures = first;
  if (first & 0x80) {
    const v = first & 0x7f;
    if (v !== 0) throw invalid(`failed to deserialize transaction: unsupported transaction version ${v}`);
    version = 0;
    numRequiredSignatures = r.byte();
  }
  const numReadonlySignedAccounts = r.byte();
  const numReadonlyUnsignedAccounts = r.byte();
  const keyCount = r.compactU16();
  const accountKeys: string[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(bs58.encode(r.take(32)));
  const blockhashOffset = r.offset - messageStart;
  const recentBlockhash = bs58.encode(r.take(32));
  const ixCount = r.compactU16();
  const instructions: WireTransaction['instructions'] = [];
  for (let i = 0; i < ixCount; i++) {
    const programIdIndex = r.byte();
    const accounts = Array.from(r.take(r.compactU16()));
    const data = r.take(r.compactU16());
    instructions.push({ programIdIndex, accounts, data });
  }
  const addressTableLookups: WireTransaction['addressTableLookups'] = [];
  if (version === 0) {
    const n = r.compactU16();
    for (let i = 0; i < n; i++) {
      const accountKey = bs58.encode(r.take(32));
      const writableIndexes = Array.from(r.take(r.compactU16()));
      const readonlyIndexes = Array.from(r.take(r.compactU16()));
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  return {
    version,
    header: { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts },
    accountKeys,
    recentBlockhash,
    blockhashOffset,
    instructions,
    addressTableLookups,
  };
}

/**
 * Decodes and sanitizes a wire transaction the way a validator's RPC does before anything
 * else: malformed bytes, bad offsets and lookup tables (unsupported here) are invalid params.
 */
export function decodeWireTransaction(bytes: Uint8Array): WireTransaction {
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalid(
      `base64 encoded solana_transaction::versioned::VersionedTransaction too large: ${bytes.length} bytes (max: encoded/raw ${Math.ceil(PACKET_DATA_SIZE / 3) * 4}/${PACKET_DATA_SIZE})`,
    );
  }
  const r = new Reader(bytes);
  let parsed: ReturnType<typeof parseMessage>;
  const signatures: Uint8Array[] = [];
  let messageStart: number;
  try {
    const sigCount = r.compactU16();
    for (let i = 0; i < sigCount; i++) signatures.push(r.take(64));
    messageStart = r.offset;
    parsed = parseMessage(r, messageStart);
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw invalid(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(e as Error).message}`);
  }
  if (r.offset !== bytes.length)
    throw invalid('failed to deserialize solana_transaction::versioned::VersionedTransaction: trailing bytes');
  const tx: WireTransaction = { bytes, signatures, messageBytes: bytes.subarray(messageStart), ...parsed };
  sanitize(tx);
  return tx;
}

/** Decodes a bare message (getFeeForMessage), with the same sanitizing minus signatures. */
export function decodeWireMessage(bytes: Uint8Array): WireTransaction {
  const r = new Reader(bytes);
  let parsed: ReturnType<typeof parseMessage>;
  try {
    parsed = parseMessage(r, 0);
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw invalid(`failed to deserialize solana_message::versions::VersionedMessage: ${(e as Error).message}`);
  }
  if (r.offset !== bytes.length)
    throw invalid('failed to deserialize solana_message::versions::VersionedMessage: trailing bytes');
  const signatures = Array.from({ length: parsed.header.numRequiredSignatures }, () => new Uint8Array(64));
  const tx: WireTransaction = { bytes, signatures, messageBytes: bytes, ...parsed };
  sanitize(tx);
  return tx;
}

function sanitize(tx: WireTransaction): void {
  const { header, accountKeys, instructions } = tx;
  const fail = () => invalid('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
  if (tx.addressTableLookups.length > 0) {
    throw invalid('invalid transaction: address lookup tables are not supported by this localnet');
  }
  if (tx.signatures.length !== header.numRequiredSignatures) throw fail();
  if (header.numRequiredSignatures === 0 || header.numRequiredSignatures > accountKeys.length) throw fail();
  if (header.numReadonlySignedAccounts >= header.numRequiredSignatures) throw fail();
  if (header.numReadonlyUnsignedAccounts > accountKeys.length - header.numRequiredSignatures) throw fail();
  if (new Set(accountKeys).size !== accountKeys.length) {
    throw invalid('invalid transaction: Transaction loads the same account more than once');
  }
  for (const ix of instructions) {
    // The fee payer can never be a program, and every index must be in range.
    if (ix.programIdIndex === 0 || ix.programIdIndex >= accountKeys.length) throw fail();
    if (ix.accounts.some((i) => i >= accountKeys.length)) throw fail();
  }
}

/** True when every required signature is present and valid over the message bytes. */
export function verifySignatures(tx: WireTransaction): boolean {
  for (let i = 0; i < tx.header.numRequiredSignatures; i++) {
    if (!signedBy(bs58.decode(tx.accountKeys[i]!), tx.messageBytes, tx.signatures[i]!)) return false;
  }
  return true;
}

export function isWritable(tx: WireTransaction, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = tx.header;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < tx.accountKeys.length - numReadonlyUnsignedAccounts;
}

/** What the compute-budget instructions ask for: the unit limit (null: the default) and the price per unit. */
export function computeBudgetOf(tx: WireTransaction): { unitLimit: number; microLamportsPerUnit: bigint } {
  let unitLimit: number | null = null;
  let microLamportsPerUnit = 0n;
  let otherInstructions = 0;
  for (const ix of tx.instructions) {
    if (tx.accountKeys[ix.programIdIndex] !== COMPUTE_BUDGET_PROGRAM_ID) {
      otherInstructions++;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = view.getUint32(1, true);
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
  }
  return { unitLimit: Math.min(unitLimit ?? 200_000 * otherInstructions, 1_400_000), microLamportsPerUnit };
}

/** The base fee plus the prioritization fee the compute-budget instructions ask for. */
export function computeFee(tx: WireTransaction): number {
  const { unitLimit, microLamportsPerUnit } = computeBudgetOf(tx);
  const priority = (microLamportsPerUnit * BigInt(unitLimit) + 999_999n) / 1_000_000n;
  return tx.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE + Number(priority);
}

/** The accounts the transaction write-locks. */
export function writableAccounts(tx: WireTransaction): string[] {
  return tx.accountKeys.filter((_key, i) => isWritable(tx, i));
}

/** `memo` as getSignaturesForAddress reports it: "[len] text" per memo, joined by "; ". */
export function extractMemo(tx: WireTransaction): string | null {
  const memos: string[] = [];
  for (const ix of tx.instructions) {
    if (!MEMO_PROGRAM_IDS.has(tx.accountKeys[ix.programIdIndex]!)) continue;
    const text = Buffer.from(ix.data).toString('utf8');
    memos.push(`[${ix.data.length}] ${text}`);
  }
  return memos.length ? memos.join('; ') : null;
}

/** A copy of the transaction's wire bytes with another recent blockhash (signatures kept). */
export function withBlockhash(tx: WireTransaction, blockhash: string): Uint8Array {
  const out = new Uint8Array(tx.bytes);
  const messageStart = tx.bytes.length - tx.messageBytes.length;
  out.set(bs58.decode(blockhash), messageStart + tx.blockhashOffset);
  return out;
}

/** The DER prefix of an ed25519 SubjectPublicKeyInfo (RFC 8410); the raw 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** An ed25519 check with Node's crypto, as a validator makes it. Never throws. */
function signedBy(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
