/**
 * The upgradeable loader (loader-v3) as the deploy commands and the LiteSVM harness use it:
 * account layouts, the instructions of a deploy / upgrade / finalize (built by
 * `@solana-program/loader-v3` and `@solana-program/system`), and signed transactions.
 * Everything here is synchronous so the same code serves a LiteSVM and a cluster.
 */
import {
  getDeployWithMaxDataLenInstruction,
  getExtendProgramInstruction,
  getInitializeBufferInstruction,
  getUpgradeInstruction,
  getWriteInstruction,
  LOADER_V3_PROGRAM_ADDRESS,
} from '@solana-program/loader-v3';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getAddressEncoder,
  getTransactionEncoder,
  getU32Encoder,
  getU64Encoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
  type SignatureBytes,
  type Transaction,
} from '@solana/kit';
import { findProgramAddressSync } from '../pda';
import { sign, type Signer } from './keys';

export { LOADER_V3_PROGRAM_ADDRESS };
export const SYSTEM_PROGRAM_ADDRESS = address('11111111111111111111111111111111');
const COMPUTE_BUDGET_PROGRAM_ADDRESS = address('ComputeBudget111111111111111111111111111111');

/** Account layouts (bincode `UpgradeableLoaderState`). */
export const PROGRAM_ACCOUNT_SIZE = 36; // u32 tag 2 ‖ programdata address
export const BUFFER_HEADER_SIZE = 37; // u32 tag 1 ‖ Option<authority>
export const PROGRAM_DATA_HEADER_SIZE = 45; // u32 tag 3 ‖ u64 slot ‖ Option<authority>
/** The largest legacy transaction on the wire. */
export const PACKET_DATA_SIZE = 1232;

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export function programDataAddress(programId: string): Address {
  return findProgramAddressSync(
    [new Uint8Array(getAddressEncoder().encode(address(programId)))],
    LOADER_V3_PROGRAM_ADDRESS,
  )[0];
}

const noop = (a: Address) => createNoopSigner(a);

/** Optional priority fee: a compute-unit price (micro-lamports) and a limit sized for loader work. */
export interface Priority {
  microLamportsPerCu: bigint;
  computeUnits: number;
}

export function priorityInstructions(priority?: Priority): Instruction[] {
  if (!priority || priority.microLamportsPerCu === 0n) return [];
  return [
    {
      programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS,
      data: new Uint8Array([2, ...getU32Encoder().encode(priority.computeUnits)]),
    },
    {
      programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS,
      data: new Uint8Array([3, ...getU64Encoder().encode(priority.microLamportsPerCu)]),
    },
  ];
}

export function createBufferInstructions(p: {
  payer: Address;
  buffer: Address;
  authority: Address;
  programLength: number;
  lamports: bigint;
}): Instruction[] {
  return [
    getCreateAccountInstruction({
      payer: noop(p.payer),
      newAccount: noop(p.buffer),
      lamports: p.lamports,
      space: BigInt(BUFFER_HEADER_SIZE + p.programLength),
      programAddress: LOADER_V3_PROGRAM_ADDRESS,
    }),
    getInitializeBufferInstruction({ sourceAccount: p.buffer, bufferAuthority: p.authority }),
  ];
}

export function writeInstruction(p: {
  buffer: Address;
  authority: Address;
  offset: number;
  bytes: Uint8Array;
}): Instruction {
  return getWriteInstruction({
    bufferAccount: p.buffer,
    bufferAuthority: noop(p.authority),
    offset: p.offset,
    bytes: p.bytes,
  });
}

/** Creates the program account and deploys the buffer into its ProgramData (one transaction). */
export function deployInstructions(p: {
  payer: Address;
  programId: Address;
  buffer: Address;
  authority: Address;
  maxDataLength: number;
  programAccountLamports: bigint;
}): Instruction[] {
  return [
    getCreateAccountInstruction({
      payer: noop(p.payer),
      newAccount: noop(p.programId),
      lamports: p.programAccountLamports,
      space: BigInt(PROGRAM_ACCOUNT_SIZE),
      programAddress: LOADER_V3_PROGRAM_ADDRESS,
    }),
    getDeployWithMaxDataLenInstruction({
      payerAccount: noop(p.payer),
      programDataAccount: programDataAddress(p.programId),
      programAccount: p.programId,
      bufferAccount: p.buffer,
      authority: noop(p.authority),
      maxDataLen: p.maxDataLength,
    }),
  ];
}

export function upgradeInstruction(p: {
  programId: Address;
  buffer: Address;
  authority: Address;
  spill: Address;
}): Instruction {
  return getUpgradeInstruction({
    programDataAccount: programDataAddress(p.programId),
    programAccount: p.programId,
    bufferAccount: p.buffer,
    spillAccount: p.spill,
    authority: noop(p.authority),
  });
}

/** The loader refuses to extend program data by less (unless to its maximum size). */
export const MIN_EXTEND_BYTES = 10_240;

/** How much program data of `capacity` bytes must grow to hold a build of `length` bytes (0: it fits). */
export function extendBytesFor(capacity: number, length: number): number {
  return length > capacity ? Math.max(length - capacity, MIN_EXTEND_BYTES) : 0;
}

/** The offsets of the Write transactions that put `length` bytes into a buffer, `chunk` at a time. */
export function chunkOffsets(length: number, chunk: number): number[] {
  return Array.from({ length: Math.ceil(length / chunk) }, (_, i) => i * chunk);
}

/**
 * Grows the ProgramData so a larger build fits, the payer paying the rent. `checked` is
 * ExtendProgramChecked (instruction 9, SIMD-0164: the authority signs; the library
 * predates it), which clusters move to; loaders without it (LiteSVM 1.5's) take the
 * unchecked ExtendProgram.
 */
export function extendProgramInstruction(p: {
  programId: Address;
  authority: Address;
  payer: Address;
  additionalBytes: number;
  checked: boolean;
}): Instruction {
  if (!p.checked) {
    return getExtendProgramInstruction({
      programDataAccount: programDataAddress(p.programId),
      programAccount: p.programId,
      systemProgram: SYSTEM_PROGRAM_ADDRESS,
      payer: noop(p.payer),
      additionalBytes: p.additionalBytes,
    });
  }
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: programDataAddress(p.programId), role: AccountRole.WRITABLE },
      { address: p.programId, role: AccountRole.WRITABLE },
      { address: p.authority, role: AccountRole.READONLY_SIGNER },
      { address: SYSTEM_PROGRAM_ADDRESS, role: AccountRole.READONLY },
      { address: p.payer, role: AccountRole.WRITABLE_SIGNER },
    ],
    data: new Uint8Array([...getU32Encoder().encode(9), ...getU32Encoder().encode(p.additionalBytes)]),
  };
}

/*
 * SetAuthority and Close are spelled out: the library fills an omitted optional account with
 * the loader's own address, and the loader takes a third account as the new authority, so
 * "set authority to none" would make the loader the authority instead of finalizing.
 */

/** Sets the upgrade authority of a program (or a buffer's authority); `null` makes the program final. */
export function setAuthorityInstruction(p: { account: Address; current: Address; next: Address | null }): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: p.account, role: AccountRole.WRITABLE },
      { address: p.current, role: AccountRole.READONLY_SIGNER },
      ...(p.next ? [{ address: p.next, role: AccountRole.READONLY }] : []),
    ],
    data: new Uint8Array(getU32Encoder().encode(4)),
  };
}

/** Closes a buffer, its lamports going to `recipient`. */
export function closeBufferInstruction(p: { buffer: Address; authority: Address; recipient: Address }): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: p.buffer, role: AccountRole.WRITABLE },
      { address: p.recipient, role: AccountRole.WRITABLE },
      { address: p.authority, role: AccountRole.READONLY_SIGNER },
    ],
    data: new Uint8Array(getU32Encoder().encode(5)),
  };
}

/** A legacy transaction, compiled and signed by every signer it needs (all must be given). */
export function signedTransaction(
  instructions: Instruction[],
  feePayer: Address,
  recent: RecentBlockhash,
  signers: Signer[],
): Transaction {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: recent.blockhash as Blockhash, lastValidBlockHeight: recent.lastValidBlockHeight },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const compiled = compileTransaction(message);
  const signatures: Record<string, SignatureBytes> = {};
  for (const key of Object.keys(compiled.signatures)) {
    const signer = signers.find((s) => s.address === key);
    if (!signer) throw new Error(`transaction needs a signature from ${key}, which is not among the keys given`);
    signatures[key] = sign(signer, compiled.messageBytes as unknown as Uint8Array) as SignatureBytes;
  }
  return { ...compiled, signatures } as Transaction;
}

export const wireBytes = (tx: Transaction): Uint8Array => new Uint8Array(getTransactionEncoder().encode(tx));

/**
 * The largest chunk one Write transaction carries, measured on the wire rather than
 * estimated: a transaction with an empty write, its size subtracted from the packet limit.
 */
export function writeChunkSize(p: { payer: Signer; authority: Signer; priority?: Priority }): number {
  const dummy: RecentBlockhash = { blockhash: '11111111111111111111111111111111', lastValidBlockHeight: 0n };
  const probe = signedTransaction(
    [
      ...priorityInstructions(p.priority),
      writeInstruction({
        buffer: SYSTEM_PROGRAM_ADDRESS,
        authority: p.authority.address,
        offset: 0,
        bytes: new Uint8Array(0),
      }),
    ],
    p.payer.address,
    dummy,
    [p.payer, p.authority],
  );
  // The instruction's data length is a compact-u16: 1 byte for the probe, 2 for a full chunk.
  return PACKET_DATA_SIZE - wireBytes(probe).length - 1;
}
