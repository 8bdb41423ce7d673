/**
 * `npm run program:verify`: is the program deployed at an address this source? Rebuilds
 * the program (the build is reproducible), or takes a given .so, and compares its bytes
 * with the deployed ProgramData: header stripped, the ELF's own length, zeros after it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProgram, COMMITTED_SO } from '../build';
import type { Cluster } from './cluster';
import { LOADER_V3_PROGRAM_ADDRESS } from './loader-v3';
import { compareProgram, parseProgramAccount, parseProgramData, sha256Hex, type Comparison } from './program-data';

export interface VerifyResult extends Comparison {
  programData: string;
  authority: string | null;
  slot: bigint;
}

export class VerifyError extends Error {
  override name = 'VerifyError';
}

/** The local bytes: a given file, or a fresh build from program/src. */
export function localBuild(soPath: string | undefined, log: (line: string) => void): Uint8Array {
  if (soPath) {
    log(`local: ${soPath}`);
    return new Uint8Array(readFileSync(soPath));
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'tag-registry-verify-'));
  try {
    const built = buildProgram({ outDir });
    const so = new Uint8Array(readFileSync(built.soPath));
    const committed = new Uint8Array(readFileSync(COMMITTED_SO));
    log(
      `local: rebuilt from program/src, sha256 ${built.sha256}${Buffer.from(committed).equals(Buffer.from(so)) ? ' (same as the committed .so)' : ` (the committed .so differs: ${sha256Hex(committed)})`}`,
    );
    return so;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function verifyProgram(p: {
  cluster: Cluster;
  programId: string;
  local: Uint8Array;
  log: (line: string) => void;
}): Promise<VerifyResult> {
  const { cluster, programId, local, log } = p;
  log(`cluster: ${cluster.url} (${await cluster.clusterName()})`);
  const program = await cluster.account(programId);
  if (!program) throw new VerifyError(`no account at ${programId}`);
  if (program.owner !== LOADER_V3_PROGRAM_ADDRESS)
    throw new VerifyError(`${programId} is not a loader-v3 program (owner ${program.owner})`);
  const programData = parseProgramAccount(program.data);
  const account = await cluster.account(programData);
  if (!account) throw new VerifyError(`program data ${programData} is missing`);
  const deployed = parseProgramData(account.data);
  const comparison = compareProgram(deployed.bytes, local);
  log(
    `program ${programId}, program data ${programData}, deployed in slot ${deployed.slot}, upgrade authority ${deployed.authority ?? 'none (final)'}`,
  );
  log(`deployed sha256 ${comparison.deployedSha256} (${comparison.deployedLength} bytes)`);
  log(`local    sha256 ${comparison.localSha256} (${local.length} bytes)`);
  log(
    comparison.match
      ? 'MATCH: the deployed program is this build'
      : `MISMATCH: the bytes differ from offset ${comparison.firstDifference}`,
  );
  return { ...comparison, programData, authority: deployed.authority, slot: deployed.slot };
}
