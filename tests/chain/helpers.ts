import { existsSync } from 'node:fs';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Instruction,
  type Rpc,
  type RpcSubscriptions,
  type Signature,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  type TransactionSigner,
} from '@solana/kit';
import { startLocalnet, type Localnet, type LocalnetOptions } from '@/localnet';
import { getRegisterTagInstructionAsync, LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { COMMITTED_SO } from '@/program/build';
import { sendWire as sendWireBytes } from '../support/chain';

export { airdrop } from '../support/chain';

export const PROGRAM_ID = LOCALNET_PROGRAM_ID as Address;
export const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface TestNet {
  localnet: Localnet;
  /** kit's RPC client as an integrator makes it: no retries, every commitment stated per call. */
  rpc: Rpc<SolanaRpcApi>;
  /** kit's PubSub client on the localnet's WebSocket. */
  rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
  close(): Promise<void>;
}

/** A localnet on a free port and kit's clients for it. */
export async function startTestNet(options: LocalnetOptions = {}): Promise<TestNet> {
  // The localnet quietly starts without a program it cannot find; these tests need it.
  if (!existsSync(COMMITTED_SO))
    throw new Error(`${COMMITTED_SO} is missing: run \`npm run program:build\` (npm test does).`);
  const localnet = await startLocalnet({ port: 0, dataDir: null, ...options });
  return {
    localnet,
    rpc: createSolanaRpc(localnet.url),
    rpcSubscriptions: createSolanaRpcSubscriptions(localnet.wsUrl),
    async close() {
      await localnet.close();
    },
  };
}

/** Polls the signature's status until it reaches `commitment` (the localnet answers in milliseconds). */
export async function reached(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  commitment: 'confirmed' | 'finalized' = 'confirmed',
) {
  return waitFor(async () => {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    const done = status?.confirmationStatus === 'finalized' || status?.confirmationStatus === commitment;
    return done ? status : null;
  });
}

/** A System transfer of `amount` lamports, `from` signing. */
export function transfer(from: TransactionSigner, to: Address, amount: bigint): Instruction {
  return getTransferSolInstruction({ source: from, destination: to, amount });
}

/** A transaction on the wire: its bytes, its signature (the fee payer's) and its blockhash. */
export interface WireTransaction {
  wire: Uint8Array;
  base64: Base64EncodedWireTransaction;
  signature: Signature;
  blockhash: string;
  lastValidBlockHeight: bigint;
}

/**
 * `instructions` signed by every signer they carry and the fee payer, on `lifetime` (the
 * latest blockhash unless given), as a legacy or v0 message.
 */
export async function signed(
  rpc: Rpc<SolanaRpcApi>,
  feePayer: TransactionSigner,
  instructions: Instruction[],
  { version = 'legacy', lifetime }: { version?: 'legacy' | 0; lifetime?: { blockhash: string } } = {},
): Promise<WireTransaction> {
  const latest = lifetime
    ? { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: 0n }
    : (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  return {
    wire: new Uint8Array(getTransactionEncoder().encode(tx)),
    base64: getBase64EncodedWireTransaction(tx),
    signature: getSignatureFromTransaction(tx),
    blockhash: latest.blockhash,
    lastValidBlockHeight: latest.lastValidBlockHeight,
  };
}

/**
 * A register_tag transaction, signed by the owner, the payout wallet (the owner unless given:
 * it consents by signing) and the sponsor, who pays.
 */
export async function registerTransaction(
  rpc: Rpc<SolanaRpcApi>,
  args: { tag: string; owner: TransactionSigner; sponsor: TransactionSigner; wallet?: TransactionSigner },
): Promise<WireTransaction> {
  const wallet = args.wallet ?? args.owner;
  const register = await getRegisterTagInstructionAsync(
    { owner: args.owner, feePayer: args.sponsor, wallet, tag: args.tag, walletArg: wallet.address },
    { programAddress: PROGRAM_ID },
  );
  return signed(rpc, args.sponsor, [register]);
}

/** Sends a signed transaction's wire bytes through kit's client (preflight at `confirmed` unless skipped). */
export function sendWire(
  rpc: Rpc<SolanaRpcApi>,
  tx: Pick<WireTransaction, 'base64'>,
  options: { skipPreflight?: boolean } = {},
): Promise<Signature> {
  return sendWireBytes(rpc, tx.base64, options);
}

/** Raw JSON-RPC over fetch, for what kit's client would never send, and to read an answer as the wire has it. */
export async function rawRpc(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** Polls until `check` returns a value (the localnet answers in milliseconds). */
export async function waitFor<T>(check: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
