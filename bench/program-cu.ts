/**
 * Compute units of one register_tag in LiteSVM with every feature on (from the transaction
 * metadata): the committed SBPF v3 build, deployed through loader-v3, beside the old v0
 * build (program/tests/fixtures/tag_registry_v0.so) at the same program id and with the
 * same tags, and beside the v0 figures recorded earlier. Then the binary's size and what
 * a deploy costs at today's rent. `npx tsx bench/program-cu.ts`, or `npm run bench -- program`.
 */
import type { LiteSVM } from 'litesvm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { COMMITTED_SO } from '@/program/build';
import { estimateDeployCost } from '@/program/deploy/deploy';
import { generateSigner } from '@/program/deploy/keys';
import { allFeaturesSvm } from '@/program/deploy/litesvm-deploy';
import {
  BUFFER_HEADER_SIZE,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAM_DATA_HEADER_SIZE,
  writeChunkSize,
} from '@/program/deploy/loader-v3';
import {
  expectSuccess,
  fundedKeypair,
  PROGRAM_ID,
  send,
  startSvm,
  transferInstruction,
} from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';

export const PROGRAM_CU_TARGET = 10_000;
/** No worse than v0, at most this when the owner pays. */
export const OWNER_PAYS_V3_TARGET = 4_000;
/** What was recorded for the v0 build (program id of that time; every tag at bump 255; bench/results/2026-11-26.md). */
export const README_V0_FIGURES = { ownerPays: 3_642, sponsored: 3_639, preFunded: 5_901 };
/** An earlier build kept as a fixture of the program tests (program/tests/fixtures/README.md). */
export const programFixture = (name: string) =>
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'program', 'tests', 'fixtures', name);
const V0_SO_PATH = programFixture('tag_registry_v0.so');
const LONGEST_TAG = 'abcdefghijklmnopqrstuvwxyz012345';

export interface ProgramComputeUnits {
  /** Owner pays (owner and fee payer are one key: a duplicate account in the input). */
  ownerPays: number;
  /** A separate sponsor signs and pays. */
  sponsored: number;
  /** The PDA already holds lamports below the rent: Transfer + Allocate + Assign. */
  preFunded: number;
  /** Longest tag (32 bytes), sponsored. */
  longestTag: number;
  target: number;
}

interface Scenario {
  /** A separate sponsor signs and pays; otherwise the owner does. */
  sponsored?: boolean;
  /** Send 1,000,000 lamports (below the record's rent) to the PDA first. */
  preFunded?: boolean;
  tag?: string;
}

function registerCu(svm: LiteSVM, { sponsored = false, preFunded = false, tag = 'alice' }: Scenario): number {
  const owner = fundedKeypair(svm);
  const payer = sponsored ? fundedKeypair(svm) : owner;
  if (preFunded) {
    const stranger = fundedKeypair(svm);
    const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
    const transfer = transferInstruction(stranger.address, pda, 1_000_000n);
    expectSuccess(send(svm, [transfer], stranger.address, [stranger]));
  }
  const wallet = generateSigner(); // the payout wallet signs (the v0 build ignores the account)
  const ix = registerTagInstruction({
    programAddress: PROGRAM_ID,
    tag,
    owner: owner.address,
    wallet: wallet.address,
    feePayer: payer.address,
  });
  const result = expectSuccess(send(svm, [ix], payer.address, sponsored ? [payer, owner, wallet] : [owner, wallet]));
  return Number(result.computeUnitsConsumed());
}

function measure(makeSvm: () => LiteSVM): ProgramComputeUnits {
  return {
    ownerPays: registerCu(makeSvm(), {}),
    sponsored: registerCu(makeSvm(), { sponsored: true }),
    preFunded: registerCu(makeSvm(), { preFunded: true }),
    longestTag: registerCu(makeSvm(), { sponsored: true, tag: LONGEST_TAG }),
    target: PROGRAM_CU_TARGET,
  };
}

/** The committed (v3) build, each scenario in a fresh LiteSVM. */
export function measureProgramComputeUnits(): ProgramComputeUnits {
  return measure(() => startSvm());
}

/**
 * The v0 build at the same id. SIMD-0500 refuses to deploy it, but a v0 program deployed
 * before keeps running, so it is loaded directly (execution is what is measured here).
 */
export function measureV0ComputeUnits(): ProgramComputeUnits {
  const v0 = new Uint8Array(readFileSync(V0_SO_PATH));
  return measure(() => {
    const svm = allFeaturesSvm();
    svm.addProgram(PROGRAM_ID, v0);
    return svm;
  });
}

export interface DeployCost {
  bytes: number;
  writes: number;
  /** Rent of program data sized to the build / to twice the build (the deploy's default). */
  programDataRent: bigint;
  programDataRentDoubled: bigint;
  programAccountRent: bigint;
  /** Held by the buffer while writing, returned at the deploy. */
  bufferRent: bigint;
  /** Fees of the whole deploy as program:deploy estimates them (payer is the authority). */
  fees: bigint;
}

/** What `program:deploy` spends for the committed build, at the Rent sysvar LiteSVM carries (today's mainnet rent). */
export function deployCost(): DeployCost {
  const bytes = readFileSync(COMMITTED_SO).length;
  const svm = allFeaturesSvm();
  const rent = (size: number) => svm.minimumBalanceForRentExemption(BigInt(size));
  const payer = generateSigner();
  const bufferRent = rent(BUFFER_HEADER_SIZE + bytes);
  const programAccountRent = rent(PROGRAM_ACCOUNT_SIZE);
  const programDataRentDoubled = rent(PROGRAM_DATA_HEADER_SIZE + 2 * bytes);
  // program:deploy's own estimate (payer is the authority, no priority fee): the fees are the same whatever the capacity.
  const { writes, fees } = estimateDeployCost({
    length: bytes,
    chunk: writeChunkSize({ payer, authority: payer }),
    separateAuthority: false,
    bufferOnly: false,
    rentBuffer: bufferRent,
    rentProgramData: programDataRentDoubled,
    rentProgram: programAccountRent,
  });
  return {
    bytes,
    writes,
    programDataRent: rent(PROGRAM_DATA_HEADER_SIZE + bytes),
    programDataRentDoubled,
    programAccountRent,
    bufferRent,
    fees,
  };
}

const sol = (lamports: bigint) => `${(Number(lamports) / 1e9).toFixed(4)} SOL`;

/** Prints the figures against the targets (part of `npm run bench`). */
export function benchProgram(): ProgramComputeUnits {
  const v3 = measureProgramComputeUnits();
  const v0 = measureV0ComputeUnits();
  const bumps = ['alice', LONGEST_TAG]
    .map((t) => `${t.length > 8 ? '32-byte tag' : t}: ${findTagRecordAddress(t, PROGRAM_ID)[1]}`)
    .join(', ');
  console.log(`\n## Program compute units (LiteSVM, every feature on; PDA bumps ${bumps})`);
  console.log(`${'register_tag'.padEnd(30)} ${'v3'.padStart(7)} ${'v0 now'.padStart(7)} ${'v0 README'.padStart(10)}`);
  const rows: Array<[string, keyof ProgramComputeUnits]> = [
    ['owner pays', 'ownerPays'],
    ['sponsor pays', 'sponsored'],
    ['pre-funded PDA', 'preFunded'],
    ['32-byte tag, sponsor', 'longestTag'],
  ];
  for (const [label, key] of rows) {
    const readme = README_V0_FIGURES[key as keyof typeof README_V0_FIGURES];
    console.log(
      `${label.padEnd(30)} ${String(v3[key]).padStart(7)} ${String(v0[key]).padStart(7)} ${String(readme ?? '-').padStart(10)}  ${v3[key] <= v0[key] ? 'no worse than v0' : 'WORSE than v0'}`,
    );
  }
  console.log(
    `owner pays on v3: ${v3.ownerPays} CU, target ≤ ${OWNER_PAYS_V3_TARGET}: ${v3.ownerPays <= OWNER_PAYS_V3_TARGET ? 'met' : 'MISSED'}; every scenario ≤ ${v3.target}: ${Object.values(v3).every((u) => u <= v3.target) ? 'met' : 'MISSED'}`,
  );
  console.log(
    '(v0 now: the old build at the same id and tags; each extra PDA bump adds about 340 CU to v3, 1,500 to v0; `npm run bench -- cu` samples 1,000 random tags)',
  );

  const cost = deployCost();
  console.log('\n## Program binary and deploy cost (rent as LiteSVM carries it: mainnet today)');
  console.log(
    `binary: ${cost.bytes} bytes (v0 build: ${readFileSync(V0_SO_PATH).length}), ${cost.writes} write transactions`,
  );
  console.log(
    `deploy, max length 2× (the default): ${sol(cost.programDataRentDoubled + cost.programAccountRent + cost.fees)} (program data ${sol(cost.programDataRentDoubled)}, program account ${sol(cost.programAccountRent)}, fees ${sol(cost.fees)})`,
  );
  console.log(`deploy, max length = build:         ${sol(cost.programDataRent + cost.programAccountRent + cost.fees)}`);
  console.log(`held while writing, returned: ${sol(cost.bufferRent)} (buffer rent)`);
  return v3;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const cu = benchProgram();
  if (Object.values(cu).some((units) => units > cu.target)) process.exitCode = 1;
}
