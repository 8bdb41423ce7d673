/**
 * LiteSVM harness for the program tests and the CU bench (bench/program-cu.ts): a LiteSVM
 * with every feature on (SIMD-0500 included, as current clusters run), the committed .so
 * deployed at the localnet program id through real loader-v3 transactions, and kit
 * transactions sent straight to it. Keys are program/deploy/keys.ts signers, which sign
 * synchronously as LiteSVM runs. The deploy runs once per .so and process; every
 * `startSvm()` after that starts from a snapshot of the deployed state.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  lamports as toLamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
  type SignatureBytes,
  type Transaction,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from './build';
import { generateSigner, readKeypairFile, sign, type Signer } from './deploy/keys';
import { allFeaturesSvm, deployToLiteSvm } from './deploy/litesvm-deploy';

export { generateSigner, type Signer } from './deploy/keys';
export const PROGRAM_ID = LOCALNET_PROGRAM_ID as Address;
export const FEE_PER_SIGNATURE = 5000n;
export const LAMPORTS_PER_SOL = 1_000_000_000n;

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

export function fundedKeypair(svm: LiteSVM, lamports = 10n * LAMPORTS_PER_SOL): Signer {
  const signer = generateSigner();
  svm.airdrop(signer.address, toLamports(lamports));
  return signer;
}

export function balance(svm: LiteSVM, key: Address): bigint {
  return BigInt(svm.getBalance(key) ?? 0n);
}

export function accountData(svm: LiteSVM, key: Address) {
  const account = svm.getAccount(key);
  if (!account.exists) return null;
  return {
    data: new Uint8Array(account.data),
    owner: account.programAddress,
    lamports: BigInt(account.lamports),
  };
}

/** A System transfer of `lamports` from `from` (who signs when the transaction is sent) to `to`. */
export function transferInstruction(from: Address, to: Address, lamports: bigint): Instruction {
  return getTransferSolInstruction({ source: createNoopSigner(from), destination: to, amount: lamports });
}

export type SendResult = TransactionMetadata | FailedTransactionMetadata;

/**
 * A legacy transaction signed by those of `signers` it needs; a signer it needs but was not
 * given leaves its slot zero. `forgedFor` keys get a signature made by some other key, so
 * the runtime (not the client library) is what refuses a transaction missing theirs.
 */
export function signedBy(
  instructions: Instruction[],
  feePayer: Address,
  blockhash: string,
  signers: Signer[],
  forgedFor: Address[] = [],
): Transaction {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const compiled = compileTransaction(message);
  const messageBytes = new Uint8Array(compiled.messageBytes);
  const impostor = generateSigner();
  const signatures = { ...compiled.signatures };
  for (const key of Object.keys(signatures) as Address[]) {
    const signer = forgedFor.includes(key) ? impostor : signers.find((s) => s.address === key);
    if (signer) signatures[key] = sign(signer, messageBytes) as SignatureBytes;
  }
  return { ...compiled, signatures };
}

/** Builds, signs and sends (see `signedBy`), on a fresh blockhash. */
export function send(
  svm: LiteSVM,
  instructions: Instruction[],
  feePayer: Address,
  signers: Signer[],
  forgedFor: Address[] = [],
): SendResult {
  svm.expireBlockhash();
  return svm.sendTransaction(signedBy(instructions, feePayer, svm.latestBlockhash(), signers, forgedFor));
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
