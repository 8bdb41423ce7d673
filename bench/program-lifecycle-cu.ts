/**
 * Compute units of every lifecycle instruction in LiteSVM (every feature on, the committed
 * .so deployed through loader-v3), against the 3,000 CU target, with
 * register_tag beside them. `npx tsx bench/program-lifecycle-cu.ts`.
 *
 * What dominates: each lifecycle call recomputes the record's address from its stored bump
 * (sol_sha256, about 150 CU) and logs one line (~100 CU + length); the rest is the
 * program's own checks. register_tag's figure depends on the tag: finding its canonical
 * bump costs about 340 CU per bump tried beyond the first, so it is printed per tag (and
 * over 1,000 random tags by bench/program-cu-sample.ts).
 */
import { Keypair, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  acceptTransferInstruction,
  cancelTransferInstruction,
  offerTransferInstruction,
  registerTagInstruction,
  releaseTagInstruction,
  setWalletInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import {
  expectSuccess,
  fundedKeypair,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  setUnixTime,
  startSvm,
} from '@/program/litesvm-harness';

export const LIFECYCLE_CU_TARGET = 3_000;

const programId = PROGRAM_ID;

export interface LifecycleComputeUnits {
  rows: Array<{ label: string; units: number; target: number | null }>;
}

/** Runs the whole lifecycle of one tag in a fresh LiteSVM and measures each instruction. */
export function measureLifecycleComputeUnits(tag = 'alice'): LifecycleComputeUnits {
  const svm = startSvm();
  const alice = fundedKeypair(svm);
  const bob = fundedKeypair(svm);
  const carol = fundedKeypair(svm);
  const [tagRecord, bump] = findTagRecordAddress(tag, programId);
  const rows: LifecycleComputeUnits['rows'] = [];
  const measure = (
    label: string,
    ix: TransactionInstruction,
    signer: Keypair,
    target: number | null = LIFECYCLE_CU_TARGET,
    wallet?: Keypair,
  ) => {
    const result = expectSuccess(send(svm, [ix], signer.publicKey, wallet ? [signer, wallet] : [signer]));
    rows.push({ label, units: Number(result.computeUnitsConsumed()), target });
  };
  const afterTheRest = () => setUnixTime(svm, svm.getClock().unixTimestamp + REST_SECONDS);
  const payee = Keypair.generate();
  const register = (owner: Keypair) =>
    registerTagInstruction({
      programId,
      tag,
      owner: owner.publicKey,
      wallet: owner.publicKey,
      feePayer: owner.publicKey,
    });
  const offer = (owner: Keypair, newOwner: PublicKey) =>
    offerTransferInstruction({ programId, tagRecord, owner: owner.publicKey, newOwner });

  measure(`register_tag, owner pays (bump ${bump})`, register(alice), alice, null);
  measure(
    'set_wallet, a separate wallet',
    setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: payee.publicKey }),
    alice,
    LIFECYCLE_CU_TARGET,
    payee,
  );
  measure(
    'set_wallet, the owner',
    setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: alice.publicKey }),
    alice,
  );
  measure('offer_transfer', offer(alice, bob.publicKey), alice);
  measure('offer_transfer, replacing an offer', offer(alice, carol.publicKey), alice);
  measure('cancel_transfer', cancelTransferInstruction({ programId, tagRecord, owner: alice.publicKey }), alice);
  expectSuccess(send(svm, [offer(alice, bob.publicKey)], alice.publicKey, [alice]));
  measure('accept_transfer', acceptTransferInstruction({ programId, tagRecord, newOwner: bob.publicKey }), bob);
  measure(
    'release_tag, to another receiver',
    releaseTagInstruction({ programId, tagRecord, owner: bob.publicKey, receiver: carol.publicKey }),
    bob,
  );
  measure('register_tag, previous owner, resting', register(bob), bob, null);
  measure(
    'release_tag, to the owner',
    releaseTagInstruction({ programId, tagRecord, owner: bob.publicKey, receiver: bob.publicKey }),
    bob,
  );
  afterTheRest();
  measure('register_tag, anyone, rest over', register(carol), carol, null);
  measure(
    'release_tag, again',
    releaseTagInstruction({ programId, tagRecord, owner: carol.publicKey, receiver: carol.publicKey }),
    carol,
  );
  afterTheRest();
  measure(
    'release_tag, closing after the rest',
    releaseTagInstruction({ programId, tagRecord, owner: carol.publicKey, receiver: carol.publicKey }),
    carol,
  );
  return { rows };
}

/** Prints the figures against the target. */
export function benchProgramLifecycle(): LifecycleComputeUnits {
  const cu = measureLifecycleComputeUnits();
  console.log('\n## Program compute units, lifecycle (LiteSVM, every feature on)');
  for (const { label, units, target } of cu.rows) {
    const verdict = target === null ? '' : `  ${units < target ? 'under' : 'OVER'} target ${target}`;
    console.log(`${label.padEnd(40)} ${String(units).padStart(6)} CU${verdict}`);
  }
  return cu;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const cu = benchProgramLifecycle();
  if (cu.rows.some(({ units, target }) => target !== null && units >= target)) process.exitCode = 1;
}
