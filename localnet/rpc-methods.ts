import bs58 from 'bs58';
import { isAddress, isSignature } from '@solana/kit';
import {
  RENT_EXEMPT_EPOCH,
  SLOTS_PER_EPOCH,
  type AccountView,
  type Commitment,
  type LocalChain,
  type TxRecord,
  type InnerInstructionsJson,
} from './chain';
import {
  RpcError,
  RPC_BLOCK_NOT_AVAILABLE,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_UNSUPPORTED_TRANSACTION_VERSION,
} from './errors';
import { computeFee, decodeWireMessage, decodeWireTransaction, isWritable } from './wire';

/** What getVersion reports; also the `apiVersion` of every context. */
export const SOLANA_CORE_VERSION = '3.0.0';
const FEATURE_SET = 3294202862;
const RPC_MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_BASE58_BYTES = 128;

export type RpcHandler = (params: unknown[], chain: LocalChain) => unknown;

// ---- parameter helpers ---------------------------------------------------------------------

function invalidParams(detail: string): RpcError {
  return new RpcError(RPC_INVALID_PARAMS, `Invalid params: ${detail}`);
}

function requireString(params: unknown[], index: number, what: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`${what} must be a string`);
  return value;
}

function requirePubkey(params: unknown[], index: number): string {
  const value = requireString(params, index, 'pubkey');
  if (!isAddress(value)) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid param: Invalid');
  return value;
}

function requireSignature(value: unknown): string {
  if (typeof value !== 'string') throw invalidParams('signature must be a string');
  if (!isSignature(value)) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid param: Invalid');
  return value;
}

function config(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams(`argument ${index + 1} must be a config object`);
  return value as Record<string, unknown>;
}

function optionalNumber(cfg: Record<string, unknown>, key: string): number | undefined {
  const value = cfg[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidParams(`${key} must be a non-negative integer`);
  return value;
}

function optionalBoolean(cfg: Record<string, unknown>, key: string): boolean {
  const value = cfg[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidParams(`${key} must be a boolean`);
  return value;
}

function optionalString(cfg: Record<string, unknown>, key: string): string | undefined {
  const value = cfg[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParams(`${key} must be a string`);
  return value;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: 'processed',
  recent: 'processed',
  confirmed: 'confirmed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  finalized: 'finalized',
  root: 'finalized',
  max: 'finalized',
};

/** A node's default commitment is `finalized`. */
function commitmentOf(cfg: Record<string, unknown>, key = 'commitment'): Commitment {
  const value = cfg[key];
  if (value === undefined || value === null) return 'finalized';
  if (typeof value !== 'string' || !(value in COMMITMENTS)) {
    throw invalidParams(
      `unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``,
    );
  }
  return COMMITMENTS[value]!;
}

function atLeastConfirmed(cfg: Record<string, unknown>): Commitment {
  const commitment = commitmentOf(cfg);
  if (commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

function contextSlot(chain: LocalChain, cfg: Record<string, unknown>): number {
  const slot = chain.slotAt(commitmentOf(cfg));
  const min = optionalNumber(cfg, 'minContextSlot');
  if (min !== undefined && min > slot) {
    throw new RpcError(RPC_MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', {
      contextSlot: slot,
    });
  }
  return slot;
}

function withContext(slot: number, value: unknown) {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot }, value };
}

function decodeBinary(text: string, encoding: string): Uint8Array {
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalidParams('invalid base64 encoding');
    return new Uint8Array(Buffer.from(text, 'base64'));
  }
  if (encoding === 'base58') {
    try {
      return bs58.decode(text);
    } catch {
      throw invalidParams('invalid base58 encoding');
    }
  }
  throw invalidParams(`unknown variant \`${encoding}\`, expected \`base58\` or \`base64\``);
}

// ---- account encoding ----------------------------------------------------------------------

function encodeAccount(account: AccountView | null, cfg: Record<string, unknown>) {
  if (!account) return null;
  const encoding = optionalString(cfg, 'encoding') ?? 'binary';
  let data = account.data;
  const slice = cfg.dataSlice as { offset?: unknown; length?: unknown } | undefined;
  if (slice !== undefined && slice !== null) {
    if (typeof slice !== 'object' || typeof slice.offset !== 'number' || typeof slice.length !== 'number') {
      throw invalidParams('dataSlice must be { offset, length }');
    }
    data = data.subarray(slice.offset, slice.offset + slice.length);
  }
  let encoded: string | [string, string];
  switch (encoding) {
    // No parser for any program here: jsonParsed falls back to base64, as a node does for
    // accounts it cannot parse.
    case 'base64':
    case 'jsonParsed':
      encoded = [Buffer.from(data).toString('base64'), 'base64'];
      break;
    case 'base58':
    case 'binary':
      if (data.length > MAX_BASE58_BYTES) {
        throw new RpcError(
          RPC_INVALID_REQUEST,
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
        );
      }
      encoded = encoding === 'binary' ? bs58.encode(data) : [bs58.encode(data), 'base58'];
      break;
    default:
      throw invalidParams(`unsupported account encoding \`${encoding}\``);
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: account.rentEpoch,
    space: account.data.length,
  };
}

// ---- transaction encoding ------------------------------------------------------------------

function transactionJson(record: TxRecord, encoding: string) {
  const bytes = new Uint8Array(Buffer.from(record.wire, 'base64'));
  if (encoding === 'base64') return [record.wire, 'base64'];
  if (encoding === 'base58') return [bs58.encode(bytes), 'base58'];
  const tx = decodeWireTransaction(bytes);
  const signatures = tx.signatures.map((s) => bs58.encode(s));
  if (encoding === 'jsonParsed') {
    return {
      signatures,
      message: {
        accountKeys: tx.accountKeys.map((pubkey, i) => ({
          pubkey,
          signer: i < tx.header.numRequiredSignatures,
          writable: isWritable(tx, i),
          source: 'transaction',
        })),
        instructions: tx.instructions.map((ix) => ({
          accounts: ix.accounts.map((i) => tx.accountKeys[i]!),
          data: bs58.encode(ix.data),
          programId: tx.accountKeys[ix.programIdIndex]!,
          stackHeight: null,
        })),
        recentBlockhash: tx.recentBlockhash,
        ...(tx.version === 0 ? { addressTableLookups: [] } : {}),
      },
    };
  }
  return {
    message: {
      accountKeys: tx.accountKeys,
      header: tx.header,
      instructions: tx.instructions.map((ix) => ({
        accounts: ix.accounts,
        data: bs58.encode(ix.data),
        programIdIndex: ix.programIdIndex,
        stackHeight: null,
      })),
      recentBlockhash: tx.recentBlockhash,
      ...(tx.version === 0 ? { addressTableLookups: [] } : {}),
    },
    signatures,
  };
}

function innerInstructionsParsed(inner: InnerInstructionsJson[], accountKeys: string[]) {
  return inner.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) => ({
      accounts: ix.accounts.map((i) => accountKeys[i]!),
      data: ix.data,
      programId: accountKeys[ix.programIdIndex]!,
      stackHeight: ix.stackHeight,
    })),
  }));
}

function metaJson(record: TxRecord, encoding: string) {
  return {
    computeUnitsConsumed: record.computeUnitsConsumed,
    costUnits: record.computeUnitsConsumed,
    err: record.err,
    fee: record.fee,
    innerInstructions:
      encoding === 'jsonParsed'
        ? innerInstructionsParsed(record.innerInstructions, record.accountKeys)
        : record.innerInstructions,
    loadedAddresses: { readonly: [], writable: [] },
    logMessages: record.logs,
    postBalances: record.postBalances,
    postTokenBalances: record.postTokenBalances ?? [],
    preBalances: record.preBalances,
    preTokenBalances: record.preTokenBalances ?? [],
    ...(record.returnData
      ? { returnData: { programId: record.returnData.programId, data: [record.returnData.data, 'base64'] } }
      : {}),
    rewards: [],
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
}

// ---- methods -------------------------------------------------------------------------------

const getLatestBlockhash: RpcHandler = (params, chain) => {
  const cfg = config(params, 0);
  const slot = contextSlot(chain, cfg);
  const { blockhash, lastValidBlockHeight } = chain.latestBlockhash(commitmentOf(cfg));
  return withContext(slot, { blockhash, lastValidBlockHeight });
};

const getSlot: RpcHandler = (params, chain) => contextSlot(chain, config(params, 0));

const getBalance: RpcHandler = (params, chain) => {
  const pubkey = requirePubkey(params, 0);
  const slot = contextSlot(chain, config(params, 1));
  return withContext(slot, chain.getBalance(pubkey));
};

const getAccountInfo: RpcHandler = (params, chain) => {
  const pubkey = requirePubkey(params, 0);
  const cfg = config(params, 1);
  const slot = contextSlot(chain, cfg);
  return withContext(slot, encodeAccount(chain.getAccount(pubkey), cfg));
};

const getMultipleAccounts: RpcHandler = (params, chain) => {
  const keys = params[0];
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string' || !isAddress(k))) {
    throw invalidParams('first argument must be an array of pubkeys');
  }
  if (keys.length > MAX_MULTIPLE_ACCOUNTS)
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  const cfg = config(params, 1);
  const slot = contextSlot(chain, cfg);
  return withContext(
    slot,
    (keys as string[]).map((k) => encodeAccount(chain.getAccount(k), cfg)),
  );
};

const getProgramAccounts: RpcHandler = (params, chain) => {
  const programId = requirePubkey(params, 0);
  const cfg = config(params, 1);
  const slot = contextSlot(chain, cfg);
  const filters = (cfg.filters ?? []) as unknown[];
  if (!Array.isArray(filters)) throw invalidParams('filters must be an array');
  const matches = chain
    .programAccounts(programId)
    .filter(({ account }) => filters.every((f) => matchesFilter(account.data, f)));
  const value = matches.map(({ pubkey, account }) => ({ account: encodeAccount(account, cfg), pubkey }));
  return cfg.withContext === true ? withContext(slot, value) : value;
};

function matchesFilter(data: Uint8Array, filter: unknown): boolean {
  if (!filter || typeof filter !== 'object') throw invalidParams('invalid filter');
  const f = filter as { dataSize?: unknown; memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } };
  if (typeof f.dataSize === 'number') return data.length === f.dataSize;
  if (f.memcmp && typeof f.memcmp.offset === 'number' && typeof f.memcmp.bytes === 'string') {
    const bytes = decodeBinary(f.memcmp.bytes, typeof f.memcmp.encoding === 'string' ? f.memcmp.encoding : 'base58');
    const at = f.memcmp.offset;
    return at + bytes.length <= data.length && bytes.every((b, i) => data[at + i] === b);
  }
  throw invalidParams('invalid filter');
}

const getMinimumBalanceForRentExemption: RpcHandler = (params, chain) => {
  const size = params[0];
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 10 * 1024 * 1024) {
    throw invalidParams('data length must be an integer between 0 and 10 MiB');
  }
  return chain.minimumBalanceForRentExemption(size);
};

const requestAirdrop: RpcHandler = (params, chain) => {
  const pubkey = requirePubkey(params, 0);
  const lamports = params[1];
  if (typeof lamports !== 'number') throw invalidParams('lamports must be a number');
  return chain.airdrop(pubkey, lamports);
};

const sendTransaction: RpcHandler = (params, chain) => {
  const wire = requireString(params, 0, 'transaction');
  const cfg = config(params, 1);
  const encoding = optionalString(cfg, 'encoding') ?? 'base58';
  const bytes = decodeBinary(wire, encoding);
  return chain.submit(bytes, { skipPreflight: optionalBoolean(cfg, 'skipPreflight') });
};

const simulateTransaction: RpcHandler = (params, chain) => {
  const wire = requireString(params, 0, 'transaction');
  const cfg = config(params, 1);
  const bytes = decodeBinary(wire, optionalString(cfg, 'encoding') ?? 'base58');
  const sigVerify = optionalBoolean(cfg, 'sigVerify');
  const replaceRecentBlockhash = optionalBoolean(cfg, 'replaceRecentBlockhash');
  if (sigVerify && replaceRecentBlockhash) {
    throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
  }
  const slot = contextSlot(chain, cfg);
  const result = chain.simulate(bytes, { sigVerify, replaceRecentBlockhash });
  const tx = decodeWireTransaction(bytes);
  let accounts: unknown = null;
  const accountsCfg = cfg.accounts as { addresses?: unknown; encoding?: unknown } | undefined;
  if (accountsCfg !== undefined && accountsCfg !== null) {
    if (
      !Array.isArray(accountsCfg.addresses) ||
      accountsCfg.addresses.some((a) => typeof a !== 'string' || !isAddress(a))
    ) {
      throw invalidParams('accounts.addresses must be an array of pubkeys');
    }
    const encCfg = { encoding: typeof accountsCfg.encoding === 'string' ? accountsCfg.encoding : 'base64' };
    accounts = (accountsCfg.addresses as string[]).map((address) => {
      const post = result.postAccounts.get(address);
      const view: AccountView | null = post
        ? {
            lamports: Number(post.lamports),
            data: post.data,
            owner: post.owner,
            executable: post.executable,
            rentEpoch: RENT_EXEMPT_EPOCH,
          }
        : chain.getAccount(address);
      return result.err === null ? encodeAccount(view, encCfg) : null;
    });
  }
  return withContext(slot, {
    accounts,
    err: result.err,
    fee: result.err === 'BlockhashNotFound' ? null : computeFee(tx),
    innerInstructions: optionalBoolean(cfg, 'innerInstructions')
      ? innerInstructionsParsed(result.innerInstructions, tx.accountKeys)
      : null,
    loadedAccountsDataSize: 0,
    logs: result.logs,
    replacementBlockhash: result.replacementBlockhash,
    returnData: result.returnData
      ? { programId: result.returnData.programId, data: [result.returnData.data, 'base64'] }
      : null,
    unitsConsumed: result.unitsConsumed,
  });
};

const getSignatureStatuses: RpcHandler = (params, chain) => {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw invalidParams('first argument must be an array of signatures');
  if (signatures.length > MAX_SIGNATURE_STATUSES)
    throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
  const cfg = config(params, 1);
  const search = optionalBoolean(cfg, 'searchTransactionHistory');
  const values = signatures.map((s) => chain.getSignatureStatus(requireSignature(s), search));
  return withContext(chain.slotAt('processed'), values);
};

const getSignaturesForAddress: RpcHandler = (params, chain) => {
  const address = requirePubkey(params, 0);
  const cfg = config(params, 1);
  const commitment = atLeastConfirmed(cfg);
  contextSlot(chain, cfg);
  const limit = optionalNumber(cfg, 'limit') ?? MAX_SIGNATURES_FOR_ADDRESS;
  if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS)
    throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
  const before = cfg.before == null ? undefined : requireSignature(cfg.before);
  const until = cfg.until == null ? undefined : requireSignature(cfg.until);
  return chain.signaturesForAddress(address, { limit, before, until, commitment }).map((r) => ({
    blockTime: r.blockTime,
    confirmationStatus: chain.isFinalized(r.slot) ? 'finalized' : 'confirmed',
    err: r.err,
    memo: r.memo,
    signature: r.signature,
    slot: r.slot,
  }));
};

const getTransaction: RpcHandler = (params, chain) => {
  const signature = requireSignature(params[0]);
  // The second argument may be a bare encoding string (deprecated form).
  const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : config(params, 1);
  const commitment = atLeastConfirmed(cfg);
  const encoding = optionalString(cfg, 'encoding') ?? 'json';
  if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) {
    throw invalidParams(
      `unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``,
    );
  }
  const maxVersion = optionalNumber(cfg, 'maxSupportedTransactionVersion');
  const record = chain.getTransaction(signature);
  if (!record) return null;
  if (commitment === 'finalized' && !chain.isFinalized(record.slot)) return null;
  if (record.version === 0 && maxVersion === undefined) {
    throw new RpcError(
      RPC_UNSUPPORTED_TRANSACTION_VERSION,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return {
    blockTime: record.blockTime,
    meta: metaJson(record, encoding),
    slot: record.slot,
    transaction: transactionJson(record, encoding),
    ...(maxVersion !== undefined ? { version: record.version } : {}),
  };
};

const getBlockHeight: RpcHandler = (params, chain) => contextSlot(chain, config(params, 0));

const getBlockTime: RpcHandler = (params, chain) => {
  const slot = params[0];
  if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0)
    throw invalidParams('slot must be a non-negative integer');
  const time = slot <= chain.slotAt('confirmed') ? chain.blockTime(slot) : null;
  if (time === null) throw new RpcError(RPC_BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
  return time;
};

const getVersion: RpcHandler = () => ({ 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION });

const getGenesisHash: RpcHandler = (_params, chain) => chain.genesisHash;

const getHealth: RpcHandler = () => 'ok';

const getFeeForMessage: RpcHandler = (params, chain) => {
  const message = requireString(params, 0, 'message');
  const cfg = config(params, 1);
  const slot = contextSlot(chain, cfg);
  const tx = decodeWireMessage(decodeBinary(message, 'base64'));
  return withContext(slot, chain.isBlockhashValid(tx.recentBlockhash) ? computeFee(tx) : null);
};

const isBlockhashValid: RpcHandler = (params, chain) => {
  const blockhash = requireString(params, 0, 'blockhash');
  const cfg = config(params, 1);
  const slot = contextSlot(chain, cfg);
  return withContext(slot, chain.isBlockhashValid(blockhash));
};

const getEpochInfo: RpcHandler = (params, chain) => {
  const slot = contextSlot(chain, config(params, 0));
  return {
    absoluteSlot: slot,
    blockHeight: slot,
    epoch: Math.floor(slot / SLOTS_PER_EPOCH),
    slotIndex: slot % SLOTS_PER_EPOCH,
    slotsInEpoch: SLOTS_PER_EPOCH,
    transactionCount: chain.transactionCount(),
  };
};

const getEpochSchedule: RpcHandler = () => ({
  firstNormalEpoch: 0,
  firstNormalSlot: 0,
  leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
  slotsPerEpoch: SLOTS_PER_EPOCH,
  warmup: false,
});

const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;

/** Up to 128 base58 keys, as a validator takes them. */
function feeAccounts(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((k) => typeof k !== 'string'))
    throw invalidParams('first argument must be an array of pubkeys');
  if (value.length > MAX_PRIORITIZATION_FEE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_ACCOUNTS}`);
  }
  for (const key of value as string[])
    if (!isAddress(key)) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid param: Invalid');
  return value as string[];
}

const getRecentPrioritizationFees: RpcHandler = (params, chain) =>
  chain.recentPrioritizationFees(feeAccounts(params[0]));

/**
 * Not a validator method: lets tests make the cluster look busy.
 * `localnetSeedPrioritizationFees [{ prioritizationFee, accounts, slots? }]` (see LocalChain.seedPrioritizationFees).
 */
const localnetSeedPrioritizationFees: RpcHandler = (params, chain) => {
  const cfg = config(params, 0);
  const fee = cfg.prioritizationFee;
  if (typeof fee !== 'number' || !Number.isSafeInteger(fee) || fee < 0)
    throw invalidParams('prioritizationFee must be a non-negative integer');
  chain.seedPrioritizationFees({
    microLamports: BigInt(fee),
    accounts: feeAccounts(cfg.accounts),
    slots: optionalNumber(cfg, 'slots'),
  });
  return null;
};

const getTransactionCount: RpcHandler = (_params, chain) => chain.transactionCount();

const getFirstAvailableBlock: RpcHandler = () => 0;

const getIdentity: RpcHandler = (_params, chain) => ({ identity: chain.identity });

/** Method name → handler; anything else answers -32601. */
export const RPC_METHODS: Record<string, RpcHandler> = {
  getAccountInfo,
  getBalance,
  getBlockHeight,
  getBlockTime,
  getEpochInfo,
  getEpochSchedule,
  getFeeForMessage,
  getFirstAvailableBlock,
  getGenesisHash,
  getHealth,
  getIdentity,
  getLatestBlockhash,
  getMinimumBalanceForRentExemption,
  getMultipleAccounts,
  getProgramAccounts,
  getRecentPrioritizationFees,
  getSignatureStatuses,
  getSignaturesForAddress,
  getSlot,
  getTransaction,
  getTransactionCount,
  getVersion,
  isBlockhashValid,
  localnetSeedPrioritizationFees,
  minimumLedgerSlot: getFirstAvailableBlock,
  requestAirdrop,
  sendTransaction,
  simulateTransaction,
};
