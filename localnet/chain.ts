import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { LiteSVM, FailedTransactionMetadata, type TransactionMetadata, type InnerInstruction } from 'litesvm';
import { readKeypairFile, signerFromSecretKey } from '@/program/deploy/keys';
import { allFeaturesSvm, ensureDeployedInLiteSvm } from '@/program/deploy/litesvm-deploy';
import { signedTransaction, SYSTEM_PROGRAM_ADDRESS, wireBytes } from '@/program/deploy/loader-v3';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  address as toAddress,
  createNoopSigner,
  getSignatureFromTransaction,
  getTransactionDecoder,
  isAddress,
} from '@solana/kit';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import {
  RpcError,
  RPC_INVALID_PARAMS,
  RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  isCommittedError,
  txErrorMessage,
  txErrorToJson,
  type TxError,
} from './errors';
import { PrioritizationFees } from './prioritization-fees';
import { tokenBalances, type TokenBalance } from './token-balances';
import {
  computeBudgetOf,
  decodeWireTransaction,
  extractMemo,
  verifySignatures,
  withBlockhash,
  writableAccounts,
  type WireTransaction,
} from './wire';

/** Blocks a blockhash stays usable for, as on mainnet (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150;
/** Slots the signature status cache covers when `searchTransactionHistory` is off. */
const STATUS_CACHE_SLOTS = 300;
export const SLOTS_PER_EPOCH = 432_000;
const FAUCET_SEED = createHash('sha256').update('identity-tag-service localnet faucet').digest();
/** A key from a 32-byte seed, as solana-keygen derives one (ed25519: the seed's key pair). */
const signerFromSeed = (seed: Uint8Array) => signerFromSecretKey(nacl.sign.keyPair.fromSeed(seed).secretKey);
/** Pays for the localnet's programs and holds their upgrade authority, so a rebuilt .so goes live on restart. */
const PROGRAM_AUTHORITY_SEED = createHash('sha256').update('identity-tag-service localnet program authority').digest();
// Kept below 2^53 so every balance is exact as a JSON number.
const FAUCET_LAMPORTS = 1_000_000_000_000_000n;

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface InnerInstructionsJson {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number | null }[];
}

/** One transaction that landed in a block (success or committed failure). */
export interface TxRecord {
  signature: string;
  slot: number;
  blockTime: number;
  /** Wire bytes, base64. */
  wire: string;
  version: 'legacy' | 0;
  accountKeys: string[];
  err: TxError | null;
  logs: string[];
  innerInstructions: InnerInstructionsJson[];
  computeUnitsConsumed: number;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  /** Absent in records written before they were kept. */
  preTokenBalances?: TokenBalance[];
  postTokenBalances?: TokenBalance[];
  memo: string | null;
  returnData: { programId: string; data: string } | null;
}

/** What the chain persists besides LiteSVM's own snapshot. */
export interface ChainMeta {
  genesisHash: string;
  slot: number;
  /** Block time (unix seconds) per slot, index = slot. */
  blockTimes: number[];
  /** Wall-clock ms each slot was produced, index = slot (finality is measured from it). */
  producedAtMs: number[];
  /** Blockhash per slot for the recent window. */
  recentBlockhashes: { slot: number; blockhash: string }[];
  transactions: TxRecord[];
}

export interface SimulationResult {
  err: TxError | null;
  logs: string[];
  unitsConsumed: number;
  innerInstructions: InnerInstructionsJson[];
  returnData: { programId: string; data: string } | null;
  fee: number;
  postAccounts: Map<string, { lamports: bigint; data: Uint8Array; owner: string; executable: boolean }>;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null;
}

/**
 * The rent epoch a validator reports for rent-exempt accounts, u64::MAX, as the JSON number
 * a client reads it as (a double rounds it to 2^64).
 */
export const RENT_EXEMPT_EPOCH = 2 ** 64;

export interface AccountView {
  lamports: number;
  data: Uint8Array;
  owner: string;
  executable: boolean;
  rentEpoch: number;
}

export type StatusListener = (signature: string, commitment: Commitment, record: TxRecord) => void;

export interface LocalChainOptions {
  /** Deployed through loader-v3 transactions (their keypair signs); upgraded when the .so changes. */
  programs: { programId: string; soPath: string; keypairPath: string }[];
  finalityDelayMs: number;
  now?: () => number;
  /** Called after every state change (persistence hooks here). */
  onChange?: () => void;
}

/**
 * LiteSVM wrapped as a single-leader chain: every accepted transaction gets its own slot,
 * block time and blockhash, and is kept with its wire bytes, status and logs so the
 * JSON-RPC layer can answer like a validator.
 */
export class LocalChain {
  private svm: LiteSVM;
  private meta: ChainMeta;
  private readonly bySignature = new Map<string, TxRecord>();
  private readonly byAddress = new Map<string, TxRecord[]>();
  private readonly blockhashSlots = new Map<string, number>();
  private readonly listeners = new Set<StatusListener>();
  private readonly finalityTimers = new Set<NodeJS.Timeout>();
  private readonly faucet = signerFromSeed(FAUCET_SEED);
  private readonly priorityFees = new PrioritizationFees();
  private readonly now: () => number;

  constructor(
    private readonly options: LocalChainOptions,
    restored?: { meta: ChainMeta; svmBytes: Uint8Array },
  ) {
    this.now = options.now ?? Date.now;
    if (restored) {
      this.svm = LiteSVM.fromBytes(restored.svmBytes);
      this.meta = restored.meta;
    } else {
      this.svm = allFeaturesSvm(); // every feature on, SIMD-0500 included, as clusters run
      this.meta = this.genesis();
    }
    // LiteSVM only knows its own latest blockhash and a bounded history; the chain keeps
    // the blockhash window and the signature history itself.
    this.svm.withBlockhashCheck(false).withTransactionHistory(0n).withSigverify(true);
    for (const p of options.programs) {
      if (existsSync(p.soPath)) this.deployProgram(p);
    }
    for (const record of this.meta.transactions) this.index(record);
    for (const { slot, blockhash } of this.meta.recentBlockhashes) this.blockhashSlots.set(blockhash, slot);
    this.setClock(this.meta.slot, this.meta.blockTimes[this.meta.slot]!);
    this.topUpFaucet();
  }

  private deployProgram(p: { programId: string; soPath: string; keypairPath: string }): void {
    const program = readKeypairFile(p.keypairPath);
    if (program.address !== p.programId)
      throw new Error(`localnet: ${p.keypairPath} is ${program.address}, not ${p.programId}`);
    const authority = signerFromSeed(PROGRAM_AUTHORITY_SEED);
    const outcome = ensureDeployedInLiteSvm(this.svm, new Uint8Array(readFileSync(p.soPath)), { program, authority });
    if (outcome === 'not ours') {
      console.warn(
        `localnet: the program at ${p.programId} was not deployed by this localnet (state from an older version?); it stays as it is. Delete the data directory to start afresh.`,
      );
    }
  }

  private genesis(): ChainMeta {
    const genesisHash = bs58.encode(
      createHash('sha256').update(`localnet genesis ${this.now()} ${Math.random()}`).digest(),
    );
    const time = Math.floor(this.now() / 1000);
    return {
      genesisHash,
      slot: 0,
      blockTimes: [time],
      producedAtMs: [this.now()],
      recentBlockhashes: [{ slot: 0, blockhash: this.blockhashFor(genesisHash, 0) }],
      transactions: [],
    };
  }

  private blockhashFor(seed: string, slot: number): string {
    return bs58.encode(createHash('sha256').update(`${seed}:${slot}`).digest());
  }

  private topUpFaucet(): void {
    const faucet = this.faucet.address;
    const balance = this.svm.getBalance(faucet) ?? 0n;
    if (balance < FAUCET_LAMPORTS / 2n) {
      this.svm.setAccount({
        address: faucet,
        lamports: FAUCET_LAMPORTS as never,
        data: new Uint8Array(0),
        programAddress: SYSTEM_PROGRAM_ADDRESS,
        executable: false,
        space: 0n,
      });
    }
  }

  private index(record: TxRecord): void {
    this.bySignature.set(record.signature, record);
    for (const key of record.accountKeys) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = []));
      list.push(record);
    }
  }

  private setClock(slot: number, unixTimestamp: number): void {
    this.svm.warpToSlot(BigInt(slot));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(unixTimestamp);
    clock.epoch = BigInt(Math.floor(slot / SLOTS_PER_EPOCH));
    this.svm.setClock(clock);
  }

  // ---- reads ---------------------------------------------------------------------------

  get genesisHash(): string {
    return this.meta.genesisHash;
  }

  /** Snapshot for persistence. */
  snapshot(): { meta: ChainMeta; svmBytes: Uint8Array } {
    return { meta: this.meta, svmBytes: this.svm.toBytes() };
  }

  /** Highest slot at the given commitment (block height equals slot: no skipped slots). */
  slotAt(commitment: Commitment): number {
    if (commitment !== 'finalized' || this.options.finalityDelayMs <= 0) return this.meta.slot;
    const cutoff = this.now() - this.options.finalityDelayMs;
    let slot = this.meta.slot;
    while (slot > 0 && this.meta.producedAtMs[slot]! > cutoff) slot--;
    return slot;
  }

  isFinalized(slot: number): boolean {
    return slot <= this.slotAt('finalized');
  }

  blockTime(slot: number): number | null {
    return this.meta.blockTimes[slot] ?? null;
  }

  latestBlockhash(commitment: Commitment): { blockhash: string; lastValidBlockHeight: number; slot: number } {
    const slot = this.slotAt(commitment);
    const entry =
      this.meta.recentBlockhashes.find((b) => b.slot === slot) ??
      this.meta.recentBlockhashes[this.meta.recentBlockhashes.length - 1]!;
    return { blockhash: entry.blockhash, lastValidBlockHeight: entry.slot + BLOCKHASH_VALIDITY_BLOCKS, slot };
  }

  /** A transaction with this blockhash could still land in the next block. */
  isBlockhashValid(blockhash: string): boolean {
    const slot = this.blockhashSlots.get(blockhash);
    return slot !== undefined && this.meta.slot + 1 <= slot + BLOCKHASH_VALIDITY_BLOCKS;
  }

  getAccount(address: string): AccountView | null {
    const account = this.svm.getAccount(toAddress(address));
    if (!account.exists) return null;
    return {
      lamports: Number(account.lamports),
      data: new Uint8Array(account.data),
      owner: account.programAddress,
      executable: account.executable,
      rentEpoch: RENT_EXEMPT_EPOCH,
    };
  }

  programAccounts(programId: string): { pubkey: string; account: AccountView }[] {
    return this.svm.getProgramAccounts(toAddress(programId)).map((a) => ({
      pubkey: a.address,
      account: {
        lamports: Number(a.lamports),
        data: new Uint8Array(a.data),
        owner: a.programAddress,
        executable: a.executable,
        rentEpoch: RENT_EXEMPT_EPOCH,
      },
    }));
  }

  transactionCount(): number {
    return this.meta.transactions.length;
  }

  /** The node's identity: the faucet doubles as the single leader. */
  get identity(): string {
    return this.faucet.address;
  }

  getBalance(address: string): number {
    return Number(this.svm.getBalance(toAddress(address)) ?? 0n);
  }

  minimumBalanceForRentExemption(dataLength: number): number {
    return Number(this.svm.minimumBalanceForRentExemption(BigInt(dataLength)));
  }

  getTransaction(signature: string): TxRecord | null {
    return this.bySignature.get(signature) ?? null;
  }

  /** Status of a signature as getSignatureStatuses reports it, or null when unknown. */
  getSignatureStatus(signature: string, searchTransactionHistory: boolean) {
    const record = this.bySignature.get(signature);
    if (!record) return null;
    if (!searchTransactionHistory && record.slot + STATUS_CACHE_SLOTS < this.meta.slot) return null;
    const finalized = this.isFinalized(record.slot);
    return {
      slot: record.slot,
      confirmations: finalized ? null : Math.min(this.meta.slot - record.slot, 31),
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      confirmationStatus: finalized ? ('finalized' as const) : ('confirmed' as const),
    };
  }

  /** Newest first, as getSignaturesForAddress pages them. */
  signaturesForAddress(
    address: string,
    opts: { limit: number; before?: string; until?: string; commitment: Commitment },
  ): TxRecord[] {
    const list = this.byAddress.get(address) ?? [];
    const maxSlot = this.slotAt(opts.commitment);
    let start = list.length - 1;
    if (opts.before !== undefined) {
      const i = list.findIndex((r) => r.signature === opts.before);
      if (i < 0) return [];
      start = i - 1;
    }
    const out: TxRecord[] = [];
    for (let i = start; i >= 0 && out.length < opts.limit; i--) {
      const record = list[i]!;
      if (record.signature === opts.until) break;
      if (record.slot > maxSlot) continue;
      out.push(record);
    }
    return out;
  }

  onStatus(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- writes --------------------------------------------------------------------------

  /**
   * sendTransaction: refuses what a validator refuses (bad signature, unknown or expired
   * blockhash, duplicate, preflight failure) with the same JSON-RPC errors; records what
   * lands, failed executions included when preflight is skipped.
   */
  submit(bytes: Uint8Array, opts: { skipPreflight: boolean }): string {
    const tx = decodeWireTransaction(bytes);
    const signature = bs58.encode(tx.signatures[0]!);
    if (!verifySignatures(tx)) {
      throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
    }
    if (this.bySignature.has(signature)) throw preflightFailure('AlreadyProcessed', emptySimulation());
    if (!this.isBlockhashValid(tx.recentBlockhash)) throw preflightFailure('BlockhashNotFound', emptySimulation());
    const nextSlot = this.meta.slot + 1;
    const blockTime = Math.max(this.meta.blockTimes[this.meta.slot]!, Math.floor(this.now() / 1000));
    if (!opts.skipPreflight) {
      this.setClock(nextSlot, blockTime);
      const sim = this.runSimulation(tx, bytes);
      this.setClock(this.meta.slot, this.meta.blockTimes[this.meta.slot]!);
      if (sim.err !== null) throw preflightFailure(sim.err, sim);
    }
    return this.execute(tx, bytes, signature, nextSlot, blockTime).signature;
  }

  /** Runs a verified transaction in a new slot; throws (and rolls the clock back) when it cannot land. */
  private execute(
    tx: WireTransaction,
    bytes: Uint8Array,
    signature: string,
    slot: number,
    blockTime: number,
  ): TxRecord {
    const keys = tx.accountKeys.map((k) => toAddress(k));
    const preBalances = keys.map((k) => Number(this.svm.getBalance(k) ?? 0n));
    const readToken = (address: string) => this.getAccount(address);
    const preTokenBalances = tokenBalances(tx.accountKeys, readToken, bs58.encode);
    this.setClock(slot, blockTime);
    const result = this.svm.sendTransaction(getTransactionDecoder().decode(bytes));
    const failed = result instanceof FailedTransactionMetadata;
    const err = failed ? txErrorToJson(result.err()) : null;
    const meta: TransactionMetadata = failed ? result.meta() : result;
    if (err !== null && !isCommittedError(err)) {
      this.setClock(this.meta.slot, this.meta.blockTimes[this.meta.slot]!);
      throw preflightFailure(err, { ...emptySimulation(), logs: meta.logs() });
    }
    const postBalances = keys.map((k) => Number(this.svm.getBalance(k) ?? 0n));
    const postTokenBalances = tokenBalances(tx.accountKeys, readToken, bs58.encode);
    // Lamports are conserved inside a transaction, so what left the accounts is the fee.
    const fee = preBalances.reduce((a, b) => a + b, 0) - postBalances.reduce((a, b) => a + b, 0);
    const record: TxRecord = {
      signature,
      slot,
      blockTime,
      wire: Buffer.from(bytes).toString('base64'),
      version: tx.version,
      accountKeys: tx.accountKeys,
      err,
      logs: meta.logs(),
      innerInstructions: innerInstructionsJson(meta.innerInstructions()),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      fee,
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances,
      memo: extractMemo(tx),
      returnData: returnDataJson(meta),
    };
    this.produceBlock(slot, blockTime);
    this.priorityFees.record(slot, computeBudgetOf(tx).microLamportsPerUnit, writableAccounts(tx));
    this.meta.transactions.push(record);
    this.index(record);
    this.announce(record);
    this.options.onChange?.();
    return record;
  }

  private produceBlock(slot: number, blockTime: number): void {
    this.meta.slot = slot;
    this.meta.blockTimes[slot] = blockTime;
    this.meta.producedAtMs[slot] = this.now();
    const blockhash = this.blockhashFor(this.meta.genesisHash, slot);
    this.meta.recentBlockhashes.push({ slot, blockhash });
    this.blockhashSlots.set(blockhash, slot);
    // Keep twice the validity window: old enough hashes are reported as not found.
    while (this.meta.recentBlockhashes.length > 2 * BLOCKHASH_VALIDITY_BLOCKS) {
      this.blockhashSlots.delete(this.meta.recentBlockhashes.shift()!.blockhash);
    }
  }

  private announce(record: TxRecord): void {
    const emit = (commitment: Commitment) => {
      for (const listener of this.listeners) listener(record.signature, commitment, record);
    };
    emit('processed');
    emit('confirmed');
    if (this.options.finalityDelayMs <= 0) {
      emit('finalized');
      return;
    }
    const timer = setTimeout(() => {
      this.finalityTimers.delete(timer);
      emit('finalized');
    }, this.options.finalityDelayMs + 1);
    timer.unref();
    this.finalityTimers.add(timer);
  }

  /** getRecentPrioritizationFees: per recent slot, the fee of a transaction writing `accounts` (prioritization-fees.ts). */
  recentPrioritizationFees(accounts: readonly string[]): { slot: number; prioritizationFee: number }[] {
    return this.priorityFees.recent(accounts);
  }

  /**
   * For tests: as if a transaction paying `microLamports` per unit and writing `accounts` had
   * landed in each of the `slots` most recent slots (every slot held when not given; the
   * current one when none is), so getRecentPrioritizationFees reports a cluster that busy.
   */
  seedPrioritizationFees({
    microLamports,
    accounts,
    slots,
  }: {
    microLamports: bigint;
    accounts: readonly string[];
    slots?: number;
  }): void {
    const held = this.priorityFees.recentSlots();
    const chosen =
      held.length === 0 ? [this.meta.slot] : held.slice(slots === undefined ? 0 : Math.max(0, held.length - slots));
    for (const slot of chosen) this.priorityFees.record(slot, microLamports, accounts);
  }

  /** requestAirdrop: a real System transfer from the faucet, so it has a status and history. */
  airdrop(recipient: string, lamports: number): string {
    if (!isAddress(recipient)) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid param: Invalid');
    if (!Number.isSafeInteger(lamports) || lamports <= 0) {
      throw new RpcError(RPC_INVALID_PARAMS, 'Invalid params: lamports must be a positive integer');
    }
    this.topUpFaucet();
    const transfer = getTransferSolInstruction({
      source: createNoopSigner(this.faucet.address),
      destination: recipient,
      amount: BigInt(lamports),
    });
    // Each airdrop lands in its own slot with that slot's fresh blockhash, so two airdrops
    // of the same amount to the same key never share a signature.
    const recent = { blockhash: this.latestBlockhash('processed').blockhash, lastValidBlockHeight: 0n };
    const tx = signedTransaction([transfer], this.faucet.address, recent, [this.faucet]);
    const bytes = wireBytes(tx);
    const signature = getSignatureFromTransaction(tx);
    const wire = decodeWireTransaction(bytes);
    const blockTime = Math.max(this.meta.blockTimes[this.meta.slot]!, Math.floor(this.now() / 1000));
    return this.execute(wire, bytes, signature, this.meta.slot + 1, blockTime).signature;
  }

  /** simulateTransaction: runs against current state, nothing recorded. */
  simulate(bytes: Uint8Array, opts: { sigVerify: boolean; replaceRecentBlockhash: boolean }): SimulationResult {
    let tx = decodeWireTransaction(bytes);
    let replacementBlockhash: SimulationResult['replacementBlockhash'] = null;
    if (opts.replaceRecentBlockhash) {
      const latest = this.latestBlockhash('processed');
      bytes = withBlockhash(tx, latest.blockhash);
      tx = decodeWireTransaction(bytes);
      replacementBlockhash = { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight };
    }
    if (opts.sigVerify && !verifySignatures(tx)) {
      throw new RpcError(RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
    }
    if (!this.isBlockhashValid(tx.recentBlockhash)) return { ...emptySimulation(), err: 'BlockhashNotFound' };
    if (this.bySignature.has(bs58.encode(tx.signatures[0]!))) {
      return { ...emptySimulation(), err: 'AlreadyProcessed' };
    }
    const blockTime = Math.max(this.meta.blockTimes[this.meta.slot]!, Math.floor(this.now() / 1000));
    this.setClock(this.meta.slot + 1, blockTime);
    if (!opts.sigVerify) this.svm.withSigverify(false);
    try {
      return { ...this.runSimulation(tx, bytes), replacementBlockhash };
    } finally {
      this.svm.withSigverify(true);
      this.setClock(this.meta.slot, this.meta.blockTimes[this.meta.slot]!);
    }
  }

  private runSimulation(tx: WireTransaction, bytes: Uint8Array): SimulationResult {
    // With sigverify off LiteSVM's wrapper accepts missing (all-zero) signatures.
    const result = this.svm.simulateTransaction(getTransactionDecoder().decode(bytes));
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result.meta();
    const postAccounts: SimulationResult['postAccounts'] = new Map();
    if (!failed) {
      for (const a of result.postAccounts()) {
        postAccounts.set(a.address, {
          lamports: BigInt(a.lamports),
          data: new Uint8Array(a.data),
          owner: a.programAddress,
          executable: a.executable,
        });
      }
    }
    return {
      err: failed ? txErrorToJson(result.err()) : null,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      innerInstructions: innerInstructionsJson(meta.innerInstructions()),
      returnData: returnDataJson(meta),
      fee: 0,
      postAccounts,
      replacementBlockhash: null,
    };
  }

  close(): void {
    for (const timer of this.finalityTimers) clearTimeout(timer);
    this.finalityTimers.clear();
    this.listeners.clear();
  }
}

function emptySimulation(): SimulationResult {
  return {
    err: null,
    logs: [],
    unitsConsumed: 0,
    innerInstructions: [],
    returnData: null,
    fee: 0,
    postAccounts: new Map(),
    replacementBlockhash: null,
  };
}

/** The -32002 answer of a node whose preflight simulation failed. */
function preflightFailure(err: TxError, sim: SimulationResult): RpcError {
  return new RpcError(RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${txErrorMessage(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: sim.logs,
    replacementBlockhash: null,
    returnData: sim.returnData ? { programId: sim.returnData.programId, data: [sim.returnData.data, 'base64'] } : null,
    unitsConsumed: sim.unitsConsumed,
  });
}

function innerInstructionsJson(inner: InnerInstruction[][]): InnerInstructionsJson[] {
  const out: InnerInstructionsJson[] = [];
  inner.forEach((list, index) => {
    if (list.length === 0) return;
    out.push({
      index,
      instructions: list.map((ii) => {
        const ix = ii.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: bs58.encode(ix.data()),
          stackHeight: ii.stackHeight(),
        };
      }),
    });
  });
  return out;
}

function returnDataJson(meta: TransactionMetadata): TxRecord['returnData'] {
  const rd = meta.returnData();
  const data = rd.data();
  const programId = rd.programId();
  if (data.length === 0 && programId.every((b) => b === 0)) return null;
  return { programId: bs58.encode(programId), data: Buffer.from(data).toString('base64') };
}
