// The committed program is SBPF v3 and goes through loader-v3 as mainnet will run it
// (SIMD-0500 on): deploy, register_tag, upgrade, final. The v0 build is the control.
import type { Address } from '@solana/kit';
import bs58 from 'bs58';
import { FeatureSet, type LiteSVM } from 'litesvm';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instructionOf } from '@/devstack/lifecycle-instructions';
import { parseTagRecord } from '@/packages/tag-registry/src';
import { COMMITTED_SO } from '@/program/build';
import { generateSigner } from '@/program/deploy/keys';
import {
  deployToLiteSvm,
  finalizeInLiteSvm,
  LoaderTransactionError,
  upgradeInLiteSvm,
} from '@/program/deploy/litesvm-deploy';
import { PROGRAM_DATA_HEADER_SIZE } from '@/program/deploy/loader-v3';
import { parseProgramData } from '@/program/deploy/program-data';
import { accountData, expectSuccess, fundedKeypair, logs, newSvm, send } from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';
import { buildChangedProgram } from './sbpf-changed-build';
import { elfHeader } from './sbpf-elf-layout';

/** SIMD-0500, disable_sbpf_v0_v1_v2_deployment. */
const SIMD_0500 = 'B8JJXCy5amZyWG9r7EnUYLwzXSXTxG7GZ1qZ1qggo83g';
const V0_SO_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tag_registry_v0.so');
const UPGRADE_LOG = 'tag registry: upgraded build';

const committed = new Uint8Array(readFileSync(COMMITTED_SO));
const work = mkdtempSync(path.join(tmpdir(), 'sbpf-v3-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function mainnetLikeSvm(): LiteSVM {
  expect(FeatureSet.allEnabled().isActive(bs58.decode(SIMD_0500))).toBe(true);
  return newSvm();
}

function register(svm: LiteSVM, programId: Address, tag: string) {
  const owner = fundedKeypair(svm);
  const { instruction } = instructionOf({ kind: 'register', tag, owner, wallet: owner }, programId);
  const result = send(svm, [instruction], owner.address, [owner]);
  return { owner, result };
}

function deployFailure(svm: LiteSVM, so: Uint8Array): LoaderTransactionError {
  try {
    deployToLiteSvm(svm, so, { program: generateSigner() });
  } catch (e) {
    if (e instanceof LoaderTransactionError) return e;
    throw e;
  }
  throw new Error('the deploy went through');
}

describe('SBPF v3 program through loader-v3 with every feature on', () => {
  it('the committed .so has e_flags 3; the v0 control has 0', () => {
    expect(elfHeader(committed).flags).toBe(3);
    expect(elfHeader(new Uint8Array(readFileSync(V0_SO_PATH))).flags).toBe(0);
  });

  it('deploys (buffer, writes, deploy with max data length) and register_tag works', () => {
    const svm = mainnetLikeSvm();
    const deployed = deployToLiteSvm(svm, committed, {
      program: generateSigner(),
      maxDataLength: 2 * committed.length,
    });
    const programData = accountData(svm, deployed.programData)!;
    expect(programData.data.length).toBe(PROGRAM_DATA_HEADER_SIZE + 2 * committed.length);
    expect(
      Buffer.from(
        programData.data.subarray(PROGRAM_DATA_HEADER_SIZE, PROGRAM_DATA_HEADER_SIZE + committed.length),
      ).equals(Buffer.from(committed)),
    ).toBe(true);

    const programId = deployed.programId;
    const { owner, result } = register(svm, programId, 'alice');
    expectSuccess(result);
    const record = parseTagRecord(accountData(svm, findTagRecordAddress('alice', programId)[0])!.data);
    expect(record).toMatchObject({ tag: 'alice' });
    expect(record!.owner).toBe(owner.address);
  });

  it('refuses the old v0 build in the same setting (the control)', () => {
    const error = deployFailure(mainnetLikeSvm(), new Uint8Array(readFileSync(V0_SO_PATH)));
    expect(error.step).toBe('deploy');
    expect(error.logs).toContain('Detected sbpf_version required by the executable which are not enabled');
  });

  describe('upgrade and final', () => {
    let changed: Uint8Array;
    beforeAll(() => {
      changed = buildChangedProgram(work, UPGRADE_LOG);
    });

    it('an upgrade to a build with a new log line answers with that line; after final the loader refuses an upgrade', () => {
      const svm = mainnetLikeSvm();
      const deployed = deployToLiteSvm(svm, committed, { program: generateSigner() });
      const programId = deployed.programId;
      expect(logs(expectSuccess(register(svm, programId, 'before').result))).not.toContain(
        `Program log: ${UPGRADE_LOG}`,
      );

      upgradeInLiteSvm(svm, deployed, changed); // larger than the max data length: extended first
      expect(logs(expectSuccess(register(svm, programId, 'after').result))).toContain(`Program log: ${UPGRADE_LOG}`);

      const final = finalizeInLiteSvm(svm, deployed);
      expect(final.authority).toBeNull();
      expect(parseProgramData(accountData(svm, deployed.programData)!.data).authority).toBeNull();
      let refused: unknown;
      try {
        upgradeInLiteSvm(svm, { ...final, authority: deployed.authority }, committed);
      } catch (e) {
        refused = e;
      }
      expect(refused).toBeInstanceOf(LoaderTransactionError);
      expect((refused as LoaderTransactionError).logs.join('\n')).toMatch(
        /Incorrect upgrade authority provided|Program not upgradeable/,
      );
      expect(logs(expectSuccess(register(svm, programId, 'still').result))).toContain(`Program log: ${UPGRADE_LOG}`);
    });
  });
});
