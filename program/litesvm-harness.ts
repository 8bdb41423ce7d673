/**
 * LiteSVM harness for the program tests and the CU bench (bench/program-cu.ts): a LiteSVM
 * with every feature on (SIMD-0500 included, as current clusters run), the committed .so
 * deployed at the localnet program id through real loader-v3 transactions, web3.js v1
 * transactions converted to @solana/kit ones. The deploy runs once per .so and process;
 * every `startSvm()` after that starts from a snapshot of the deployed state.
 */
import { address, getTransactionDecoder, lamports as toLamports } from '@solana/kit';
import { Keypair, PublicKey, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nacl from 'tweetnacl';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from './build';
import { readKeypairFile } from './deploy/keys';
import { allFeaturesSvm, deployToLiteSvm } from './deploy/litesvm-deploy';

export const PROGRAM_ID = new PublicKey(LOCALNET_PROGRAM_ID);
export const FEE_PER_SIGNATURE = 5000n;
export const LAMPORTS_PER_SOL = 1_000_000_000n;

export const toAddress = (key: PublicKey) => address(key.toBase58());

/** A LiteSVM as mainnet will run it: every feature on, SIMD-0500 included. */
export function newSvm(): LiteSVM {
  return allFeaturesSvm();
}

const deployedSnapshots = new Map<string, Uint8Array>();

/** A LiteSVM with every feature on and the program at PROGRAM_ID, deployed through loader-v3. */
export function startSvm(soPath: string = COMMITTED_SO): LiteSVM {
  const so = new Uint8Array(readFileSync(soPath));
  const key = createHash('sha256').update(so).digest('hex');
  let snapshot = deployedSnapshots.get(key);
  if (!snapshot) {
    const svm = newSvm();
    deployToLiteSvm(svm, so, { program: readKeypairFile(LOCALNET_PROGRAM_KEYPAIR) });
    snapshot = svm.toBytes();
    deployedSnapshots.set(key, snapshot);
  }
  return LiteSVM.fromBytes(snapshot);
}

/** How long a released tag rests (program/src/abi.h REST_SECONDS): 30 days of the Clock's unix_timestamp. */
export const REST_SECONDS = 30n * 86_400n;

/** Sets the Clock sysvar's unix_timestamp, the time the program reads. */
export function setUnixTime(svm: LiteSVM, unixTimestamp: bigint): void {
  const clock = svm.getClock();
  clock.unixTimestamp = unixTimestamp;
  svm.setClock(clock);
}

export function fundedKeypair(svm: LiteSVM, lamports = 10n * LAMPORTS_PER_SOL): Keypair {
  const keypair = Keypair.generate();
  svm.airdrop(toAddress(keypair.publicKey), toLamports(lamports));
  return keypair;
}

export function balance(svm: LiteSVM, key: PublicKey): bigint {
  return BigInt(svm.getBalance(toAddress(key)) ?? 0n);
}

export function accountData(svm: LiteSVM, key: PublicKey) {
  const account = svm.getAccount(toAddress(key));
  if (!account.exists) return null;
  return {
    data: new Uint8Array(account.data),
    owner: new PublicKey(account.programAddress),
    lamports: BigInt(account.lamports),
  };
}

export type SendResult = TransactionMetadata | FailedTransactionMetadata;

/**
 * Builds, signs and sends. `forgedFor` keys get a signature made by some other key, so
 * the runtime (not the client library) is what refuses a transaction missing theirs.
 */
export function send(
  svm: LiteSVM,
  instructions: TransactionInstruction[],
  feePayer: PublicKey,
  signers: Keypair[],
  forgedFor: PublicKey[] = [],
): SendResult {
  svm.expireBlockhash();
  const tx = new Transaction({ feePayer, recentBlockhash: svm.latestBlockhash() }).add(...instructions);
  if (signers.length > 0) tx.partialSign(...signers);
  const impostor = Keypair.generate();
  for (const key of forgedFor) {
    tx.addSignature(key, Buffer.from(nacl.sign.detached(tx.serializeMessage(), impostor.secretKey)));
  }
  const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
  return svm.sendTransaction(getTransactionDecoder().decode(wire));
}

/** The custom error code of a failed instruction, or a description of any other outcome. */
export function customErrorCode(result: SendResult): number | string {
  if (!(result instanceof FailedTransactionMetadata)) return 'success';
  const err = result.err();
  if (typeof err === 'object' && 'err' in err && typeof err.err === 'function') {
    const inner: unknown = err.err();
    if (typeof inner === 'object' && inner !== null && 'code' in inner) return Number(inner.code);
    return `InstructionError(${String(inner)})`;
  }
  return `TransactionError(${String(err)})`;
}

export function logs(result: SendResult): string[] {
  return result instanceof FailedTransactionMetadata ? result.meta().logs() : result.logs();
}

export function expectSuccess(result: SendResult): TransactionMetadata {
  if (result instanceof FailedTransactionMetadata) {
    throw new Error(`transaction failed: ${result.toString()}\n${result.meta().logs().join('\n')}`);
  }
  return result;
}
