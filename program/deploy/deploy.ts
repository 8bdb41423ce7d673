/**
 * `npm run program:deploy`: puts a build on any cluster through loader-v3. Prints the cost
 * before it spends anything (and wants `yes` on mainnet), writes the buffer in parallel
 * within a bound, retries a failed write, resumes a deploy that stopped half way from its
 * buffer (kept in a state file), then reads the program data back and prints its SHA-256
 * beside the local build's.
 */
import type { Address } from '@solana/kit';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENESIS_HASHES, RpcError, TransactionFailed, type Cluster } from './cluster';
import { generateSigner, signerFromSecretKey, type Signer } from './keys';
import {
  closeBufferStep,
  createBufferStep,
  deployStep,
  extendStep,
  setAuthorityStep,
  upgradeStep,
  writeSteps,
  type DeployStep,
} from './deploy-steps';
import {
  BUFFER_HEADER_SIZE,
  extendBytesFor,
  LOADER_V3_PROGRAM_ADDRESS,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAM_DATA_HEADER_SIZE,
  priorityInstructions,
  programDataAddress,
  signedTransaction,
  writeChunkSize,
  type Priority,
} from './loader-v3';
import { SBPF_V3 } from '../linker/link-sbpf';
import {
  compareProgram,
  parseBuffer,
  parseProgramAccount,
  parseProgramData,
  sha256Hex,
  type Comparison,
} from './program-data';

const LAMPORTS_PER_SOL = 1_000_000_000n;
const FEE_PER_SIGNATURE = 5000n;
const WRITE_ATTEMPTS = 5;

export const sol = (lamports: bigint) => `${(Number(lamports) / Number(LAMPORTS_PER_SOL)).toFixed(6)} SOL`;

export interface DeployOptions {
  cluster: Cluster;
  so: Uint8Array;
  payer: Signer;
  /** The program's keypair: needed for a first deploy, optional for an upgrade. */
  program?: Signer;
  programId?: string;
  upgrade: boolean;
  /** Signs deploys and upgrades (default: the payer). */
  authority?: Signer;
  /** Hands the upgrade authority to this key afterwards (a multisig, say). */
  newAuthority?: string;
  final: boolean;
  /** Spending on mainnet needs this. */
  yes: boolean;
  /** ProgramData capacity of a first deploy (default: twice the build, room for upgrades). */
  maxDataLength?: number;
  concurrency: number;
  /** Where the buffer of an unfinished deploy is remembered. */
  stateDir: string;
  priority?: Priority;
  /** Testing hook: stop with an error after this many successful writes. */
  failAfterWrites?: number;
  log: (line: string) => void;
}

export interface DeployResult {
  programId: string;
  programData: string;
  authority: string | null;
  /** Set when the upgrade authority is a key we cannot sign for: the buffer waits for it. */
  pendingBuffer?: string;
  comparison?: Comparison;
  spentLamports: bigint;
}

export class DeployError extends Error {
  override name = 'DeployError';
}

interface DeployState {
  genesisHash: string;
  programId: string;
  soSha256: string;
  /** The buffer's keypair (it signs the buffer account's creation). */
  buffer: number[];
}

function assertSbpfV3(so: Uint8Array): void {
  const isElf = so.length >= 64 && so[0] === 0x7f && so[1] === 0x45 && so[2] === 0x4c && so[3] === 0x46;
  const flags = isElf ? new DataView(so.buffer, so.byteOffset, so.byteLength).getUint32(48, true) : -1;
  if (flags !== SBPF_V3) {
    throw new DeployError(
      `the file is not an SBPF v3 program (e_flags ${flags}); clusters with SIMD-0500 refuse older ones: run npm run program:build`,
    );
  }
}

export async function deployProgram(o: DeployOptions): Promise<DeployResult> {
  const { cluster, so, payer, log } = o;
  assertSbpfV3(so);
  const authority = o.authority ?? payer;
  const programId = o.program?.address ?? o.programId;
  if (!programId)
    throw new DeployError('say which program: --program-keypair (first deploy) or --program-id (upgrade)');
  const genesisHash = await cluster.genesisHash();
  const clusterName = GENESIS_HASHES[genesisHash] ?? 'custom';
  log(`cluster: ${cluster.url} (${clusterName}, genesis ${genesisHash})`);
  log(`program: ${programId}, build ${sha256Hex(so)} (${so.length} bytes)`);

  // What is there now.
  const existing = await cluster.account(programId);
  const programData = programDataAddress(programId);
  let capacity = 0;
  let currentAuthority: string | null = authority.address;
  if (!o.upgrade) {
    if (existing)
      throw new DeployError(`an account already exists at ${programId}; pass --upgrade to replace the program's code`);
    if (!o.program)
      throw new DeployError(
        'a first deploy needs the program keypair (--program-keypair): it signs the program account',
      );
  } else {
    if (!existing) throw new DeployError(`no program at ${programId}; deploy it first (without --upgrade)`);
    if (existing.owner !== LOADER_V3_PROGRAM_ADDRESS)
      throw new DeployError(`${programId} is not a loader-v3 program (owner ${existing.owner})`);
    if (parseProgramAccount(existing.data) !== programData)
      throw new DeployError(`${programId} points to unexpected program data`);
    const pdAccount = await cluster.account(programData);
    if (!pdAccount) throw new DeployError(`program data ${programData} is missing`);
    const pd = parseProgramData(pdAccount.data);
    currentAuthority = pd.authority;
    if (currentAuthority === null)
      throw new DeployError(`${programId} is final: its upgrade authority is none, so it can never be upgraded`);
    capacity = pd.bytes.length;
    if (compareProgram(pd.bytes, so).match) {
      log('the program already holds this build: nothing to write');
      return finish(o, {
        programId,
        programData,
        currentAuthority,
        authority,
        spentBefore: await cluster.balance(payer.address),
      });
    }
  }
  const bufferOnly = o.upgrade && currentAuthority !== authority.address;

  // Cost, before anything is spent.
  const maxDataLength = o.upgrade ? capacity : Math.max(o.maxDataLength ?? 2 * so.length, so.length);
  const rentBuffer = await cluster.minimumBalance(BUFFER_HEADER_SIZE + so.length);
  const extendBy = o.upgrade ? extendBytesFor(capacity, so.length) : 0;
  const rentProgramData = o.upgrade
    ? extendBy > 0
      ? (await cluster.minimumBalance(PROGRAM_DATA_HEADER_SIZE + capacity + extendBy)) -
        (await cluster.minimumBalance(PROGRAM_DATA_HEADER_SIZE + capacity))
      : 0n
    : await cluster.minimumBalance(PROGRAM_DATA_HEADER_SIZE + maxDataLength);
  const rentProgram = o.upgrade ? 0n : await cluster.minimumBalance(PROGRAM_ACCOUNT_SIZE);
  const chunk = writeChunkSize({ payer, authority, priority: o.priority });
  const { writes, fees, spend, needed } = estimateDeployCost({
    length: so.length,
    chunk,
    separateAuthority: authority.address !== payer.address,
    bufferOnly,
    priority: o.priority,
    rentBuffer,
    rentProgramData,
    rentProgram,
  });
  const balance = await cluster.balance(payer.address);
  log(
    bufferOnly
      ? `cost: about ${sol(spend)}: the buffer's rent ${sol(rentBuffer)} (returned when the upgrade uses it) and fees ${sol(fees)} for ${writes + 2} transactions`
      : `cost: about ${sol(spend)}: program data rent ${sol(rentProgramData)} (${o.upgrade ? `growing to ${maxDataLength}` : `max length ${maxDataLength}`} bytes)` +
          `${o.upgrade ? '' : `, program account rent ${sol(rentProgram)}`}, fees ${sol(fees)} for ${writes + 3} transactions;` +
          ` the buffer holds ${sol(rentBuffer)} while writing, returned at the ${o.upgrade ? 'upgrade' : 'deploy'}`,
  );
  log(`payer ${payer.address}: ${sol(balance)}`);
  if (balance < needed) throw new DeployError(`the payer needs at least ${sol(needed)}, it has ${sol(balance)}`);
  if (clusterName === 'mainnet-beta' && !o.yes) {
    throw new DeployError('this is mainnet: nothing was spent. Check the cost above, then run again with --yes');
  }

  if (extendBy > 0 && bufferOnly) {
    log(
      `note: the build is ${so.length - capacity} bytes larger than the program data; the upgrade authority must extend it first (ExtendProgramChecked)`,
    );
  } else if (extendBy > 0) {
    await extendProgramData(o, programId as Address, authority, extendBy);
  }

  // The buffer: resumed from the state file, or new.
  const statePath = path.join(o.stateDir, `${programId}.${genesisHash.slice(0, 8)}.buffer.json`);
  const buffer = await openBuffer(o, { statePath, genesisHash, programId, authority, rentBuffer });
  await writeChunks(o, { buffer, authority, chunk });

  let signature: string;
  if (bufferOnly) {
    await sendWithRetry(
      o,
      setAuthorityStep('hand the buffer to the upgrade authority', {
        account: buffer,
        authority,
        next: currentAuthority as Address,
      }),
    );
    rmSync(statePath, { force: true });
    log(`buffer ${buffer} holds the build; its authority is now ${currentAuthority}.`);
    log(
      `The upgrade authority signs loader-v3 Upgrade(program ${programId}, buffer ${buffer}, spill <any account>) to put it live (in a multisig: propose a program upgrade with this buffer).`,
    );
    return {
      programId,
      programData,
      authority: currentAuthority,
      pendingBuffer: buffer,
      spentLamports: balance - (await cluster.balance(payer.address)),
    };
  }
  if (o.upgrade) {
    signature = await sendWithRetry(
      o,
      upgradeStep({ programId: programId as Address, buffer, authority, spill: payer.address }),
    );
  } else {
    signature = await sendWithRetry(
      o,
      deployStep({
        payer: payer.address,
        program: o.program!,
        buffer,
        authority,
        maxDataLength,
        programAccountLamports: rentProgram,
      }),
    );
  }
  rmSync(statePath, { force: true });
  log(`${o.upgrade ? 'upgraded' : 'deployed'}: ${signature}`);
  return finish(o, { programId, programData, currentAuthority: authority.address, authority, spentBefore: balance });
}

export interface DeployCostEstimate {
  writes: number;
  /** Signature fees and priority fees. */
  fees: bigint;
  /** What the payer ends up paying: rent kept by the program's accounts (or the buffer, when only a buffer is prepared) and fees. */
  spend: bigint;
  /** What the payer must hold before it starts. */
  needed: bigint;
}

/**
 * What a deploy costs, from the rent figures of the cluster (or a LiteSVM): `rentProgramData`
 * is what the program data needs (all of it on a first deploy, the growth on an upgrade).
 * Pure, so the bench (bench/program-cu.ts) prints the figure program:deploy prints.
 */
export function estimateDeployCost(p: {
  length: number;
  chunk: number;
  /** The upgrade authority is not the payer: every write carries two signatures. */
  separateAuthority: boolean;
  bufferOnly: boolean;
  priority?: Priority;
  rentBuffer: bigint;
  rentProgramData: bigint;
  rentProgram: bigint;
}): DeployCostEstimate {
  const writes = Math.ceil(p.length / p.chunk);
  const writeSigners = p.separateAuthority ? 2n : 1n;
  const signatures = 2n + BigInt(writes) * writeSigners + 3n + 2n; // create buffer, writes, deploy, authority change
  const priorityFee = p.priority
    ? (p.priority.microLamportsPerCu * BigInt(p.priority.computeUnits) * BigInt(writes + 3)) / 1_000_000n
    : 0n;
  const fees = signatures * FEE_PER_SIGNATURE + priorityFee;
  const spend = (p.bufferOnly ? p.rentBuffer : p.rentProgramData + p.rentProgram) + fees;
  // A first deploy or an upgrade holds the buffer's rent beside what it spends; a buffer only
  // for another authority spends exactly that rent (it is in `spend` already).
  const needed = p.bufferOnly ? spend : spend + p.rentBuffer;
  return { writes, fees, spend, needed };
}

/** Authority changes (hand over, or final), then the read-back. */
async function finish(
  o: DeployOptions,
  p: {
    programId: string;
    programData: Address;
    currentAuthority: string | null;
    authority: Signer;
    spentBefore: bigint;
  },
): Promise<DeployResult> {
  const { cluster, log } = o;
  let authority = p.currentAuthority;
  const wantsChange = (o.newAuthority && o.newAuthority !== authority) || (o.final && authority !== null);
  if (wantsChange && authority !== p.authority.address) {
    throw new DeployError(
      `the upgrade authority is ${authority}, not ${p.authority.address}: only it can change the authority (pass its keypair with --upgrade-authority)`,
    );
  }
  if (o.newAuthority && o.newAuthority !== authority && !o.final) {
    await sendWithRetry(
      o,
      setAuthorityStep('set upgrade authority', {
        account: p.programData,
        authority: p.authority,
        next: o.newAuthority as Address,
      }),
    );
    authority = o.newAuthority;
    log(`upgrade authority is now ${authority}`);
  }
  if (o.final && authority !== null) {
    await sendWithRetry(
      o,
      setAuthorityStep('finalize', { account: p.programData, authority: p.authority, next: null }),
    );
    authority = null;
    log('upgrade authority is now none: the program is final');
  }
  const account = await cluster.account(p.programData);
  if (!account) throw new DeployError(`program data ${p.programData} is missing after the deploy`);
  const comparison = compareProgram(parseProgramData(account.data).bytes, o.so);
  log(`deployed program data sha256 ${comparison.deployedSha256}`);
  log(`local build          sha256 ${comparison.localSha256}`);
  if (!comparison.match)
    throw new DeployError(`the deployed bytes differ from the local build at offset ${comparison.firstDifference}`);
  const spentLamports = p.spentBefore - (await cluster.balance(o.payer.address));
  log(`program ${p.programId} is live; upgrade authority: ${authority ?? 'none (final)'}; spent ${sol(spentLamports)}`);
  return { programId: p.programId, programData: p.programData, authority, comparison, spentLamports };
}

/**
 * Grows the program data, in a transaction of its own (before the writes, so the upgrade
 * lands in a later slot). ExtendProgramChecked where the loader has it, else ExtendProgram.
 */
async function extendProgramData(
  o: DeployOptions,
  programId: Address,
  authority: Signer,
  additionalBytes: number,
): Promise<void> {
  const extend = (checked: boolean) =>
    sendWithRetry(o, extendStep({ programId, authority, payer: o.payer.address, additionalBytes, checked }));
  try {
    await extend(true);
  } catch (e) {
    if (!/invalid instruction data/i.test((e as Error).message)) throw e;
    await extend(false);
  }
  o.log(`program data grown by ${additionalBytes} bytes`);
}

async function openBuffer(
  o: DeployOptions,
  p: { statePath: string; genesisHash: string; programId: string; authority: Signer; rentBuffer: bigint },
): Promise<Address> {
  const { cluster, log, so, payer } = o;
  const soSha256 = sha256Hex(so);
  let state: DeployState | null = existsSync(p.statePath)
    ? (JSON.parse(readFileSync(p.statePath, 'utf8')) as DeployState)
    : null;
  if (state && state.soSha256 !== soSha256) {
    const stale = signerFromSecretKey(Uint8Array.from(state.buffer)).address;
    const account = await cluster.account(stale);
    if (account && parseBuffer(account.data).authority === p.authority.address) {
      await sendWithRetry(
        o,
        closeBufferStep('close the buffer of another build', {
          buffer: stale,
          authority: p.authority,
          recipient: payer.address,
        }),
      );
      log(`closed buffer ${stale}, which held another build (its rent returned)`);
    }
    state = null;
  }
  if (state) {
    const buffer = signerFromSecretKey(Uint8Array.from(state.buffer));
    const account = await cluster.account(buffer.address);
    if (account) {
      const held = parseBuffer(account.data);
      if (
        account.owner !== LOADER_V3_PROGRAM_ADDRESS ||
        held.authority !== p.authority.address ||
        held.bytes.length !== so.length
      ) {
        throw new DeployError(
          `buffer ${buffer.address} in ${p.statePath} is not this deploy's (authority ${held.authority}); remove the file to start afresh`,
        );
      }
      log(`resuming from buffer ${buffer.address} (state in ${p.statePath})`);
      return buffer.address;
    }
    log(`buffer ${buffer.address} from ${p.statePath} was never created: creating it`);
    await createBuffer(o, buffer, p.authority, p.rentBuffer);
    return buffer.address;
  }
  const buffer = generateSigner();
  mkdirSync(o.stateDir, { recursive: true });
  const fresh: DeployState = {
    genesisHash: p.genesisHash,
    programId: p.programId,
    soSha256,
    buffer: Array.from(buffer.secretKey),
  };
  writeFileSync(p.statePath, `${JSON.stringify(fresh)}\n`, { mode: 0o600 }); // before the account exists: a crash can resume
  await createBuffer(o, buffer, p.authority, p.rentBuffer);
  log(`buffer ${buffer.address} created (state in ${p.statePath})`);
  return buffer.address;
}

function createBuffer(o: DeployOptions, buffer: Signer, authority: Signer, lamports: bigint): Promise<string> {
  return sendWithRetry(
    o,
    createBufferStep({
      payer: o.payer.address,
      buffer,
      authority: authority.address,
      programLength: o.so.length,
      lamports,
    }),
  );
}

/** Writes every chunk the buffer does not hold yet, `concurrency` at a time. */
async function writeChunks(o: DeployOptions, p: { buffer: Address; authority: Signer; chunk: number }): Promise<void> {
  const { cluster, so, log } = o;
  const account = await cluster.account(p.buffer);
  const held = account ? parseBuffer(account.data).bytes : new Uint8Array(so.length);
  const all = writeSteps({ buffer: p.buffer, authority: p.authority, so, chunk: p.chunk });
  const pending = all.filter(
    ({ offset }) =>
      !Buffer.from(held.subarray(offset, offset + p.chunk)).equals(Buffer.from(so.subarray(offset, offset + p.chunk))),
  );
  const total = all.length;
  let done = total - pending.length;
  if (done > 0) log(`writes: ${done}/${total} already in the buffer`);
  let reported = -1;
  const report = () => {
    const tenth = Math.floor((done * 10) / total);
    if (tenth !== reported) {
      reported = tenth;
      log(`writes: ${done}/${total} (${Math.floor((done * 100) / total)}%)`);
    }
  };
  let next = 0;
  let stopped: Error | null = null;
  const worker = async () => {
    while (!stopped && next < pending.length) {
      const write = pending[next++];
      try {
        await sendWithRetry(o, write);
      } catch (e) {
        stopped ??= e as Error;
        return;
      }
      done++;
      report();
      if (o.failAfterWrites !== undefined && done >= o.failAfterWrites && done < total) {
        stopped ??= new DeployError(
          `stopped after ${done} of ${total} writes (PROGRAM_DEPLOY_FAIL_AFTER_WRITES); run the command again to resume`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, pending.length)) }, worker));
  if (stopped) throw stopped;
  const written = await cluster.account(p.buffer);
  if (!written || !Buffer.from(parseBuffer(written.data).bytes).equals(Buffer.from(so))) {
    throw new DeployError(
      `buffer ${p.buffer} does not hold the build after the writes; run the command again to rewrite what differs`,
    );
  }
}

/**
 * Sends one transaction (fresh blockhash each attempt, the payer paying and signing),
 * retrying what may pass next time: an expired or unknown blockhash, an unreachable or
 * failing node. A transaction the runtime refused is not retried: it would be refused again.
 */
async function sendWithRetry(o: DeployOptions, { what, instructions, signers }: DeployStep): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const recent = await o.cluster.latestBlockhash();
      const tx = signedTransaction([...priorityInstructions(o.priority), ...instructions], o.payer.address, recent, [
        o.payer,
        ...signers,
      ]);
      return await o.cluster.sendAndConfirm(tx, recent.lastValidBlockHeight);
    } catch (e) {
      // A refusal would repeat, except a preflight that did not know the blockhash yet.
      const refused = e instanceof TransactionFailed && !/blockhash not found/i.test(e.message);
      if (refused || attempt >= WRITE_ATTEMPTS || !(e instanceof RpcError)) {
        throw new DeployError(
          `${what} failed${attempt > 1 ? ` after ${attempt} attempts` : ''}: ${(e as Error).message}`,
        );
      }
      o.log(`${what}: ${(e as Error).message.split('\n')[0]}; retrying (${attempt}/${WRITE_ATTEMPTS - 1})`);
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}
