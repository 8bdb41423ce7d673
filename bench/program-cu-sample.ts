/**
 * Compute units of every instruction over many random tags, each run at a fresh random
 * program id (so at whatever PDA bumps that id gives), the program deployed through real
 * loader-v3 transactions into LiteSVM with every feature on, as the tests deploy it.
 * Printed as mean, p99 and max: BEFORE, the build without the payout-wallet and rest rules
 * (program/tests/fixtures/tag_registry_v1.so), and AFTER, the committed build, over the
 * same tags and the same transactions. Both builds take the new account lists: the old one
 * ignores accounts past its own (the wallet), so the two figures price the same calls.
 * `npm run bench -- cu`, or `npx tsx bench/program-cu-sample.ts [tags]`.
 */
import type { Address } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { instructionOf, type LifecycleCall as AnyLifecycleCall } from '@/devstack/lifecycle-instructions';
import { COMMITTED_SO } from '@/program/build';
import { programFixture } from './program-cu';
import { generateSigner, type Signer } from '@/program/deploy/keys';
import { allFeaturesSvm, deployToLiteSvm } from '@/program/deploy/litesvm-deploy';
import {
  customErrorCode,
  expectSuccess,
  fundedKeypair,
  LAMPORTS_PER_SOL,
  REST_SECONDS,
  send,
  setUnixTime,
  transferInstruction,
} from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';

type LifecycleCall = AnyLifecycleCall<Signer>;

const BEFORE_SO = programFixture('tag_registry_v1.so');
export const SAMPLE_TAGS = 1_000;
const ALREADY_REGISTERED = 6012;
const NOT_TAG_OWNER = 6015;

/** What each row measures, in the order printed. */
export const SAMPLED = [
  'register_tag, a separate wallet signing',
  'register_tag refused (AlreadyRegistered)',
  'set_wallet, a separate wallet signing',
  'set_wallet, the owner as wallet',
  'set_wallet refused (NotTagOwner)',
  'offer_transfer',
  'cancel_transfer',
  'accept_transfer',
  'release_tag',
  'register_tag after the rest, address funded',
] as const;
export type Sampled = (typeof SAMPLED)[number];

const TAG_EDGE = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TAG_INNER = `${TAG_EDGE}_`;

/** A random canonical tag, 3 to 32 bytes (DESIGN "Tags"). */
export function randomTag(random: () => number = Math.random): string {
  const length = 3 + Math.floor(random() * 30);
  const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)]!;
  let tag = pick(TAG_EDGE);
  for (let i = 1; i < length - 1; i++) tag += pick(TAG_INNER);
  return tag + pick(TAG_EDGE);
}

/** `count` distinct random tags. */
export function randomTags(count: number): string[] {
  const tags = new Set<string>();
  while (tags.size < count) tags.add(randomTag());
  return [...tags];
}

/** A fresh LiteSVM with `so` deployed through loader-v3 at the address of `program`. */
export function deployAt(so: Uint8Array, program: Signer): { svm: LiteSVM; programId: Address } {
  const svm = allFeaturesSvm();
  deployToLiteSvm(svm, so, { program });
  return { svm, programId: program.address };
}

export interface TagCost {
  tag: string;
  bump: number;
  units: Record<Sampled, number>;
}

/**
 * Every instruction once per tag, in a life that exercises each: register (a separate
 * payout wallet signing), a second register (refused), set_wallet to another signing wallet
 * and back to the owner, by a stranger (refused), offer, cancel, offer again, accept,
 * release; then, 30 days on and 1,000,000 lamports sent to the address, a register by
 * another key (the build before: a pre-funded PDA, Transfer + Allocate + Assign; the
 * committed build: the resting record rewritten in place, no System call).
 */
export function sampleCosts(
  so: Uint8Array,
  program: Signer,
  tags: readonly string[],
): { programId: Address; costs: TagCost[] } {
  const { svm, programId } = deployAt(so, program);
  const funds = 10n * LAMPORTS_PER_SOL + BigInt(tags.length) * 10_000_000n;
  const [alice, bob, carol] = [fundedKeypair(svm, funds), fundedKeypair(svm, funds), fundedKeypair(svm, funds)];
  const costs = tags.map((tag): TagCost => {
    const [tagRecord, bump] = findTagRecordAddress(tag, programId);
    const units = {} as Record<Sampled, number>;
    /** Sends the call, its signer paying (a payout wallet of its own signing too), checks the outcome and keeps its compute units. */
    const run = (label: Sampled | null, call: LifecycleCall, refusal?: number) => {
      const { instruction, signer, cosigners } = instructionOf(call, programId);
      const result = send(svm, [instruction], signer.address, [signer, ...cosigners]);
      if (refusal === undefined) expectSuccess(result);
      else if (customErrorCode(result) !== refusal)
        throw new Error(`${label} for ${tag}: expected error ${refusal}, got ${customErrorCode(result)}`);
      if (label)
        units[label] = Number(
          (('meta' in result ? result.meta() : result) as { computeUnitsConsumed(): bigint }).computeUnitsConsumed(),
        );
    };
    const register = (owner: Signer, wallet: Signer = owner): LifecycleCall => ({
      kind: 'register',
      tag,
      owner,
      wallet,
    });
    const setWallet = (owner: Signer, wallet: Signer): LifecycleCall => ({ kind: 'set_wallet', tag, owner, wallet });
    const offerToBob: LifecycleCall = { kind: 'offer', tag, owner: alice, newOwner: bob.address };
    run('register_tag, a separate wallet signing', register(alice, generateSigner()));
    run('register_tag refused (AlreadyRegistered)', register(carol), ALREADY_REGISTERED);
    run('set_wallet, a separate wallet signing', setWallet(alice, generateSigner()));
    run('set_wallet, the owner as wallet', setWallet(alice, alice));
    run('set_wallet refused (NotTagOwner)', setWallet(bob, bob), NOT_TAG_OWNER);
    run('offer_transfer', offerToBob);
    run('cancel_transfer', { kind: 'cancel', tag, owner: alice });
    run(null, offerToBob);
    run('accept_transfer', { kind: 'accept', tag, newOwner: bob });
    run('release_tag', { kind: 'release', tag, owner: bob, receiver: carol.address });
    setUnixTime(svm, svm.getClock().unixTimestamp + REST_SECONDS);
    const fund = transferInstruction(carol.address, tagRecord, 1_000_000n);
    expectSuccess(send(svm, [fund], carol.address, [carol]));
    run('register_tag after the rest, address funded', register(carol));
    return { tag, bump, units };
  });
  return { programId, costs };
}

export interface Summary {
  mean: number;
  p99: number;
  max: number;
}

/** Mean, 99th percentile (nearest rank) and maximum. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(0, Math.ceil(0.99 * sorted.length) - 1);
  return {
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p99: sorted[rank]!,
    max: sorted[sorted.length - 1]!,
  };
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const cell = ({ mean, p99, max }: Summary) => `${n(mean).padStart(6)} ${n(p99).padStart(6)} ${n(max).padStart(6)}`;

/** Prints the build before and the committed build over the same tags, each at a fresh program id. */
export function benchProgramCuSample(count = SAMPLE_TAGS): Record<Sampled, Summary> {
  const tags = randomTags(count);
  // One fresh random id for both builds (each in a LiteSVM of its own): the same tags at the same bumps.
  const program = generateSigner();
  const before = sampleCosts(new Uint8Array(readFileSync(BEFORE_SO)), program, tags);
  const after = sampleCosts(new Uint8Array(readFileSync(COMMITTED_SO)), program, tags);
  const bumps = summarize(after.costs.map((c) => 255 - c.bump));
  console.log(
    `\n## Compute units per instruction, ${n(count)} random tags (3–32 bytes), both builds at one fresh random program id (LiteSVM, every feature on, deployed through loader-v3)`,
  );
  console.log(
    `program id ${program.address}: PDA bumps tried beyond the first, mean ${bumps.mean.toFixed(2)}, max ${bumps.max}`,
  );
  console.log('before: program/tests/fixtures/tag_registry_v1.so; after: program/tag_registry.so');
  console.log(
    `${'instruction'.padEnd(44)} ${'before: mean    p99    max'.padEnd(26)}   ${'after: mean    p99    max'.padEnd(25)}`,
  );
  const summaries = {} as Record<Sampled, Summary>;
  for (const label of SAMPLED) {
    summaries[label] = summarize(after.costs.map((c) => c.units[label]));
    const old = summarize(before.costs.map((c) => c.units[label]));
    console.log(`${label.padEnd(44)} ${' '.repeat(5)}${cell(old)}   ${' '.repeat(4)}${cell(summaries[label])}`);
  }
  return summaries;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  benchProgramCuSample(Number(process.argv[2] ?? SAMPLE_TAGS));
}
