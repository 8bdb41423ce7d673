/**
 * Deploys a program into a LiteSVM through real loader-v3 transactions (buffer, writes,
 * deploy with max data length; upgrade; set authority to none), so the loader's checks run
 * exactly as on a cluster with the same features. `addProgram` would skip them. Used by the
 * program tests (program/litesvm-harness.ts) and by the localnet's genesis. Synchronous, as
 * LiteSVM is.
 */
import { lamports as toLamports, type Address } from '@solana/kit';
import { FailedTransactionMetadata, FeatureSet, LiteSVM, type TransactionMetadata } from 'litesvm';
import { generateSigner, type Signer } from './keys';
import * as steps from './deploy-steps';
import * as loader from './loader-v3';
import { compareProgram, parseProgramData } from './program-data';

/**
 * A LiteSVM with every feature on (SIMD-0500 included), as clusters will run. Built from
 * `LiteSVM.default()` with the feature set first and the builtins after it: LiteSVM 1.5's
 * `new LiteSVM().withFeatureSet(FeatureSet.allEnabled())` keeps parts made for its default
 * features, and with SIMD-0460 (virtual address space adjustments) on, no program that
 * takes accounts can run there ("Failed to create SBF VM: Invalid memory region at index 4").
 */
export function allFeaturesSvm(): LiteSVM {
  return LiteSVM.default()
    .withFeatureSet(FeatureSet.allEnabled())
    .withBuiltins()
    .withSysvars()
    .withPrecompiles()
    .withDefaultPrograms() // SPL Token, Token-2022, Associated Token, Memo: what `new LiteSVM()` has
    .withLamports(1_000_000_000_000_000n)
    .withSigverify(true)
    .withBlockhashCheck(true);
}

/** A loader transaction the runtime refused; `logs` carry the loader's reason. */
export class LoaderTransactionError extends Error {
  override name = 'LoaderTransactionError';
  constructor(
    readonly step: string,
    readonly reason: string,
    readonly logs: string[],
  ) {
    super(`${step} failed: ${reason}\n${logs.join('\n')}`);
  }
}

function sendOrThrow(svm: LiteSVM, step: steps.DeployStep, payer: Signer): TransactionMetadata {
  svm.expireBlockhash();
  const recent = { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n };
  const result = svm.sendTransaction(
    loader.signedTransaction(step.instructions, payer.address, recent, [payer, ...step.signers]),
  );
  if (result instanceof FailedTransactionMetadata) {
    throw new LoaderTransactionError(step.what, result.err().toString(), result.meta().logs());
  }
  return result;
}

/** A program deployed or upgraded is visible from the next slot. */
function nextSlot(svm: LiteSVM): void {
  svm.warpToSlot(svm.getClock().slot + 1n);
}

function fund(svm: LiteSVM, signer: Signer, lamports: bigint): void {
  const has = BigInt(svm.getBalance(signer.address) ?? 0n);
  if (has < lamports) svm.airdrop(signer.address, toLamports(lamports - has));
}

/** Creates a buffer holding `so`, its authority `authority`. Returns the buffer address. */
function writeBuffer(svm: LiteSVM, so: Uint8Array, payer: Signer, authority: Signer): Address {
  const buffer = generateSigner();
  const lamports = svm.minimumBalanceForRentExemption(BigInt(loader.BUFFER_HEADER_SIZE + so.length));
  sendOrThrow(
    svm,
    steps.createBufferStep({
      payer: payer.address,
      buffer,
      authority: authority.address,
      programLength: so.length,
      lamports,
    }),
    payer,
  );
  for (const write of steps.writeSteps({
    buffer: buffer.address,
    authority,
    so,
    chunk: loader.writeChunkSize({ payer, authority }),
  }))
    sendOrThrow(svm, write, payer);
  return buffer.address;
}

export interface LiteSvmDeploy {
  programId: Address;
  programData: Address;
  /** The upgrade authority, or null after `final`. */
  authority: Signer | null;
  payer: Signer;
}

/**
 * Deploys `so` at the address of `program` (its keypair signs the program account's
 * creation). The payer (default: a fresh key funded by airdrop) is also the upgrade
 * authority unless `authority` is given; `final` sets the authority to none afterwards.
 */
export function deployToLiteSvm(
  svm: LiteSVM,
  so: Uint8Array,
  options: { program: Signer; payer?: Signer; authority?: Signer; maxDataLength?: number; final?: boolean },
): LiteSvmDeploy {
  const payer = options.payer ?? generateSigner();
  const authority = options.authority ?? payer;
  const maxDataLength = Math.max(options.maxDataLength ?? so.length, so.length);
  const rent = (size: number) => svm.minimumBalanceForRentExemption(BigInt(size));
  fund(
    svm,
    payer,
    rent(loader.BUFFER_HEADER_SIZE + so.length) +
      rent(loader.PROGRAM_DATA_HEADER_SIZE + maxDataLength) +
      rent(loader.PROGRAM_ACCOUNT_SIZE) +
      1_000_000_000n,
  );

  const buffer = writeBuffer(svm, so, payer, authority);
  sendOrThrow(
    svm,
    steps.deployStep({
      payer: payer.address,
      program: options.program,
      buffer,
      authority,
      maxDataLength,
      programAccountLamports: rent(loader.PROGRAM_ACCOUNT_SIZE),
    }),
    payer,
  );
  nextSlot(svm);
  const deployed: LiteSvmDeploy = {
    programId: options.program.address,
    programData: loader.programDataAddress(options.program.address),
    authority,
    payer,
  };
  return options.final ? finalizeInLiteSvm(svm, deployed) : deployed;
}

/**
 * Replaces the program's code with `so`. A larger build first grows the ProgramData (by at
 * least MIN_EXTEND_BYTES, the loader's minimum), in a slot of its own.
 */
export function upgradeInLiteSvm(svm: LiteSVM, deployed: LiteSvmDeploy, so: Uint8Array): void {
  const authority = deployed.authority ?? generateSigner(); // a final program: the loader refuses, as it should
  const { payer, programId } = deployed;
  fund(
    svm,
    payer,
    svm.minimumBalanceForRentExemption(BigInt(loader.BUFFER_HEADER_SIZE + so.length)) * 2n + 1_000_000_000n,
  );
  const account = svm.getAccount(deployed.programData);
  const capacity =
    (account.exists ? account.data.length : loader.PROGRAM_DATA_HEADER_SIZE) - loader.PROGRAM_DATA_HEADER_SIZE;
  const additionalBytes = loader.extendBytesFor(capacity, so.length);
  if (additionalBytes > 0) {
    sendOrThrow(
      svm,
      steps.extendStep({ programId, authority, payer: payer.address, additionalBytes, checked: false }),
      payer,
    );
    nextSlot(svm);
  }
  const buffer = writeBuffer(svm, so, payer, authority);
  sendOrThrow(svm, steps.upgradeStep({ programId, buffer, authority, spill: payer.address }), payer);
  nextSlot(svm);
}

/** Sets the upgrade authority to none: the program can never change again. */
export function finalizeInLiteSvm(svm: LiteSVM, deployed: LiteSvmDeploy): LiteSvmDeploy {
  if (!deployed.authority) return deployed;
  sendOrThrow(
    svm,
    steps.setAuthorityStep('finalize', { account: deployed.programData, authority: deployed.authority, next: null }),
    deployed.payer,
  );
  return { ...deployed, authority: null };
}

export type EnsureOutcome = 'deployed' | 'upgraded' | 'unchanged' | 'not ours';

/**
 * Makes the program at `program`'s address hold `so`: deploys it, or upgrades it when it
 * holds another build, `authority` paying and holding the upgrade authority. 'not ours':
 * something else sits there (another loader, another authority, final) and is left as it is.
 * The localnet calls this at genesis and on every start, so a rebuilt .so goes live.
 */
export function ensureDeployedInLiteSvm(
  svm: LiteSVM,
  so: Uint8Array,
  p: { program: Signer; authority: Signer },
): EnsureOutcome {
  const programData = loader.programDataAddress(p.program.address);
  const existing = svm.getAccount(p.program.address);
  if (!existing.exists) {
    deployToLiteSvm(svm, so, { program: p.program, payer: p.authority });
    return 'deployed';
  }
  const data = svm.getAccount(programData);
  if (existing.programAddress !== loader.LOADER_V3_PROGRAM_ADDRESS || !data.exists) return 'not ours';
  const current = parseProgramData(data.data);
  if (current.authority !== p.authority.address) return 'not ours';
  if (compareProgram(current.bytes, so).match) return 'unchanged';
  upgradeInLiteSvm(svm, { programId: p.program.address, programData, authority: p.authority, payer: p.authority }, so);
  return 'upgraded';
}
