/**
 * Compute units of every instruction over many random tags, each run at a fresh random
 * program id (so at whatever PDA bumps that id gives), the program deployed through real
 * loader-v3 transactions into LiteSVM with every feature on, as the tests deploy it.
 * Printed as mean, p99 and max, beside the same sample run on the build before the PDA
 * checks moved to sol_sha256 + sol_curve_validate_point
 * (program/tests/fixtures/tag_registry_runtime_pda.so) and the figures the README recorded
 * at one chosen id. `npm run bench -- cu`, or `npx tsx bench/program-cu-sample.ts [tags]`.
 */
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { acceptTransferInstruction, cancelTransferInstruction, findTagRecordAddress, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction } from '@/packages/tag-registry/src/web3js';
import { COMMITTED_SO } from '@/program/build';
import { generateSigner } from '@/program/deploy/keys';
import { allFeaturesSvm, deployToLiteSvm } from '@/program/deploy/litesvm-deploy';
import { customErrorCode, expectSuccess, fundedKeypair, LAMPORTS_PER_SOL, send } from '@/program/litesvm-harness';

const PREVIOUS_SO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'program', 'tests', 'fixtures', 'tag_registry_runtime_pda.so');
export const SAMPLE_TAGS = 1_000;

/** What each row measures, in the order printed. */
export const SAMPLED = [
  'register_tag',
  'register_tag, PDA pre-funded',
  'register_tag refused (AlreadyRegistered)',
  'set_wallet',
  'set_wallet refused (NotTagOwner)',
  'offer_transfer',
  'cancel_transfer',
  'accept_transfer',
  'release_tag',
] as const;
export type Sampled = (typeof SAMPLED)[number];

/** The README's figures at the localnet id, where every measured tag had bump 255. */
const README_FIGURES: Partial<Record<Sampled, string>> = {
  register_tag: '3,634',
  'register_tag, PDA pre-funded': '5,893',
  set_wallet: '1,825',
  offer_transfer: '1,826',
  cancel_transfer: '1,824',
  accept_transfer: '1,834',
  release_tag: '1,864–1,868',
};

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

/** A LiteSVM with `so` deployed through loader-v3 at a fresh random program id. */
export function deployAtFreshId(so: Uint8Array): { svm: LiteSVM; programId: PublicKey } {
  const svm = allFeaturesSvm();
  const program = generateSigner();
  deployToLiteSvm(svm, so, { program });
  return { svm, programId: new PublicKey(program.address) };
}

export interface TagCost {
  tag: string;
  bump: number;
  units: Record<Sampled, number>;
}

/**
 * Every instruction once per tag, in a life that exercises each: register, a second
 * register (refused), set_wallet by the owner and by a stranger (refused), offer, cancel,
 * offer again, accept, release, then a register of the released tag at a pre-funded PDA.
 */
export function sampleCosts(so: Uint8Array, tags: readonly string[]): { programId: PublicKey; costs: TagCost[] } {
  const { svm, programId } = deployAtFreshId(so);
  const funds = 10n * LAMPORTS_PER_SOL + BigInt(tags.length) * 10_000_000n;
  const [alice, bob, carol] = [fundedKeypair(svm, funds), fundedKeypair(svm, funds), fundedKeypair(svm, funds)];
  const costs = tags.map((tag): TagCost => {
    const [tagRecord, bump] = findTagRecordAddress(tag, programId);
    const units = {} as Record<Sampled, number>;
    const run = (label: Sampled | null, ix: TransactionInstruction, signer: Keypair, refusal?: number) => {
      const result = send(svm, [ix], signer.publicKey, [signer]);
      if (refusal === undefined) expectSuccess(result);
      else if (customErrorCode(result) !== refusal) throw new Error(`${label} for ${tag}: expected error ${refusal}, got ${customErrorCode(result)}`);
      if (label) units[label] = Number((('meta' in result ? result.meta() : result) as { computeUnitsConsumed(): bigint }).computeUnitsConsumed());
    };
    const register = (owner: Keypair) => registerTagInstruction({ programId, tag, owner: owner.publicKey, wallet: owner.publicKey, feePayer: owner.publicKey });
    const offerToBob = () => offerTransferInstruction({ programId, tagRecord, owner: alice.publicKey, newOwner: bob.publicKey });
    run('register_tag', register(alice), alice);
    run('register_tag refused (AlreadyRegistered)', register(carol), carol, 6012);
    run('set_wallet', setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: Keypair.generate().publicKey }), alice);
    run('set_wallet refused (NotTagOwner)', setWalletInstruction({ programId, tagRecord, owner: bob.publicKey, wallet: bob.publicKey }), bob, 6015);
    run('offer_transfer', offerToBob(), alice);
    run('cancel_transfer', cancelTransferInstruction({ programId, tagRecord, owner: alice.publicKey }), alice);
    run(null, offerToBob(), alice);
    run('accept_transfer', acceptTransferInstruction({ programId, tagRecord, newOwner: bob.publicKey }), bob);
    run('release_tag', releaseTagInstruction({ programId, tagRecord, owner: bob.publicKey, receiver: carol.publicKey }), bob);
    run(null, SystemProgram.transfer({ fromPubkey: carol.publicKey, toPubkey: tagRecord, lamports: 1_000_000 }), carol);
    run('register_tag, PDA pre-funded', register(carol), carol);
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
  return { mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, p99: sorted[rank]!, max: sorted[sorted.length - 1]! };
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const cell = ({ mean, p99, max }: Summary) => `${n(mean).padStart(6)} ${n(p99).padStart(6)} ${n(max).padStart(6)}`;

/** Prints this build and the previous one over the same tags, each at a fresh program id. */
export function benchProgramCuSample(count = SAMPLE_TAGS): Record<Sampled, Summary> {
  const tags = randomTags(count);
  const now = sampleCosts(new Uint8Array(readFileSync(COMMITTED_SO)), tags);
  const before = sampleCosts(new Uint8Array(readFileSync(PREVIOUS_SO)), tags);
  const bumps = (costs: TagCost[]) => summarize(costs.map((c) => 255 - c.bump));
  console.log(`\n## Compute units per instruction, ${n(count)} random tags (3–32 bytes), each build at a fresh random program id (LiteSVM, every feature on, deployed through loader-v3)`);
  console.log(`this build at ${now.programId.toBase58()}: bumps tried beyond the first, mean ${bumps(now.costs).mean.toFixed(2)}, max ${bumps(now.costs).max}`);
  console.log(`previous build at ${before.programId.toBase58()}: mean ${bumps(before.costs).mean.toFixed(2)}, max ${bumps(before.costs).max}`);
  console.log(`${'instruction'.padEnd(42)} ${'this build: mean    p99    max'.padEnd(30)}   ${'previous build: mean    p99    max'.padEnd(34)}  README (one id, bump 255)`);
  const summaries = {} as Record<Sampled, Summary>;
  for (const label of SAMPLED) {
    summaries[label] = summarize(now.costs.map((c) => c.units[label]));
    const previous = summarize(before.costs.map((c) => c.units[label]));
    console.log(`${label.padEnd(42)} ${' '.repeat(9)}${cell(summaries[label])}   ${' '.repeat(13)}${cell(previous)}   ${README_FIGURES[label] ?? '-'}`);
  }
  return summaries;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  benchProgramCuSample(Number(process.argv[2] ?? SAMPLE_TAGS));
}
