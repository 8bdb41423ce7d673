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
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { instructionOf, type LifecycleCall as AnyLifecycleCall } from '@/devstack/lifecycle-instructions';
import { findTagRecordAddress } from '@/program/pda';
import {
  expectSuccess,
  fundedKeypair,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  generateSigner,
  setUnixTime,
  startSvm,
  type Signer,
} from '@/program/litesvm-harness';

type LifecycleCall = AnyLifecycleCall<Signer>;

export const LIFECYCLE_CU_TARGET = 3_000;

export interface LifecycleComputeUnits {
  rows: Array<{ label: string; units: number; target: number | null }>;
}

/** Runs the whole lifecycle of one tag in a fresh LiteSVM and measures each instruction. */
export function measureLifecycleComputeUnits(tag = 'alice'): LifecycleComputeUnits {
  const svm = startSvm();
  const alice = fundedKeypair(svm);
  const bob = fundedKeypair(svm);
  const carol = fundedKeypair(svm);
  const [, bump] = findTagRecordAddress(tag, PROGRAM_ID);
  const rows: LifecycleComputeUnits['rows'] = [];
  /** Sends the call, its signer paying (a payout wallet of its own signing too), and records its compute units. */
  const measure = (label: string, call: LifecycleCall, target: number | null = LIFECYCLE_CU_TARGET) => {
    const { instruction, signer, cosigners } = instructionOf(call, PROGRAM_ID);
    const result = expectSuccess(send(svm, [instruction], signer.address, [signer, ...cosigners]));
    rows.push({ label, units: Number(result.computeUnitsConsumed()), target });
  };
  const afterTheRest = () => setUnixTime(svm, svm.getClock().unixTimestamp + REST_SECONDS);
  const register = (owner: Signer): LifecycleCall => ({ kind: 'register', tag, owner, wallet: owner });
  const release = (owner: Signer, receiver = owner): LifecycleCall => ({
    kind: 'release',
    tag,
    owner,
    receiver: receiver.address,
  });

  measure(`register_tag, owner pays (bump ${bump})`, register(alice), null);
  measure('set_wallet, a separate wallet', { kind: 'set_wallet', tag, owner: alice, wallet: generateSigner() });
  measure('set_wallet, the owner', { kind: 'set_wallet', tag, owner: alice, wallet: alice });
  measure('offer_transfer', { kind: 'offer', tag, owner: alice, newOwner: bob.address });
  measure('offer_transfer, replacing an offer', { kind: 'offer', tag, owner: alice, newOwner: carol.address });
  measure('cancel_transfer', { kind: 'cancel', tag, owner: alice });
  const offerToBob = instructionOf({ kind: 'offer', tag, owner: alice, newOwner: bob.address }, PROGRAM_ID);
  expectSuccess(send(svm, [offerToBob.instruction], alice.address, [alice]));
  measure('accept_transfer', { kind: 'accept', tag, newOwner: bob });
  measure('release_tag, to another receiver', release(bob, carol));
  measure('register_tag, previous owner, resting', register(bob), null);
  measure('release_tag, to the owner', release(bob));
  afterTheRest();
  measure('register_tag, anyone, rest over', register(carol), null);
  measure('release_tag, again', release(carol));
  afterTheRest();
  measure('release_tag, closing after the rest', release(carol));
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
