/**
 * Compute units of one register_tag in LiteSVM (from the transaction metadata), against
 * the 10,000 CU target. `npx tsx bench/program-cu.ts`, or `npm run bench -- program`.
 */
import { Keypair, SystemProgram } from '@solana/web3.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findTagRecordAddress, registerTagInstruction } from '@/lib/registry';
import { expectSuccess, fundedKeypair, PROGRAM_ID, send, startSvm } from '@/program/litesvm-harness';

export const PROGRAM_CU_TARGET = 10_000;

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

function registerCu({ sponsored = false, preFunded = false, tag = 'alice' }: Scenario): number {
  const svm = startSvm();
  const owner = fundedKeypair(svm);
  const payer = sponsored ? fundedKeypair(svm) : owner;
  if (preFunded) {
    const stranger = fundedKeypair(svm);
    const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
    const transfer = SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: pda, lamports: 1_000_000 });
    expectSuccess(send(svm, [transfer], stranger.publicKey, [stranger]));
  }
  const wallet = Keypair.generate().publicKey;
  const ix = registerTagInstruction({ programId: PROGRAM_ID, tag, owner: owner.publicKey, wallet, feePayer: payer.publicKey });
  const result = expectSuccess(send(svm, [ix], payer.publicKey, sponsored ? [payer, owner] : [owner]));
  return Number(result.computeUnitsConsumed());
}

/** Runs each scenario in a fresh LiteSVM and returns the compute units the program consumed. */
export function measureProgramComputeUnits(): ProgramComputeUnits {
  return {
    ownerPays: registerCu({}),
    sponsored: registerCu({ sponsored: true }),
    preFunded: registerCu({ preFunded: true }),
    longestTag: registerCu({ sponsored: true, tag: 'abcdefghijklmnopqrstuvwxyz012345' }),
    target: PROGRAM_CU_TARGET,
  };
}

/** Prints the figures against the target (part of `npm run bench`). */
export function benchProgram(): ProgramComputeUnits {
  const cu = measureProgramComputeUnits();
  const rows: Array<[string, number]> = [
    ['register_tag, owner pays', cu.ownerPays],
    ['register_tag, sponsor pays', cu.sponsored],
    ['register_tag, pre-funded PDA', cu.preFunded],
    ['register_tag, 32-byte tag, sponsor', cu.longestTag],
  ];
  console.log('\n## Program compute units (LiteSVM)');
  for (const [label, units] of rows) {
    console.log(`${label.padEnd(36)} ${String(units).padStart(6)} CU  ${units <= cu.target ? 'within' : 'OVER'} target ${cu.target}`);
  }
  return cu;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const cu = benchProgram();
  if (Object.values(cu).some((units) => units > cu.target)) process.exitCode = 1;
}
