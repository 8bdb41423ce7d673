import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  decompileTransactionMessage,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Base64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  type Signature,
  type TransactionSigner,
} from '@solana/kit';
import type { ChainAndMirror, ClusterAccess } from '@/lib/chain/chain-and-mirror';
import { createKitClient, type SolanaRpc } from '@/lib/chain/rpc';
import { findTagRecordPda, getRegisterTagInstructionAsync, LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { newKeypair, type TestKeypair } from './keypair';
import { signIn } from './sign-in';

/*
 * The chain as the tests use it, on kit: the localnet's program, funded signers, sending and
 * waiting for transactions, registrations sent straight to the cluster (not through the API).
 */

export const PROGRAM_ADDRESS = LOCALNET_PROGRAM_ID as Address;
const LAMPORTS_PER_SOL = 1_000_000_000n;

/** Kit's RPC at `rpcUrl`, through the app's transport (deadline, 429 waits, metrics). */
export function rpcAt(rpcUrl: string, timeoutMs = 30_000): SolanaRpc {
  return createKitClient(rpcUrl, timeoutMs).rpc;
}

/** The address of `tag`'s record under the localnet's program. */
export async function recordAddress(tag: string): Promise<Address> {
  return (await findTagRecordPda({ tag }, { programAddress: PROGRAM_ADDRESS }))[0];
}

/**
 * The cluster at `rpcUrl` and the localnet's program as the indexer and the checks take them
 * (lib/chain/chain-and-mirror.ts), through the app's transport.
 */
export function kitChainAt(rpcUrl: string, timeoutMs = 30_000): Omit<ChainAndMirror, 'db'> & ClusterAccess {
  const { rpc, transport } = createKitClient(rpcUrl, timeoutMs);
  return { rpc, transport, rpcUrl, programAddress: PROGRAM_ADDRESS };
}

/** A built transaction's wire bytes (base64, as the builders answer them) as kit reads them: the transaction, its compiled legacy message, and that message decompiled. */
export function decodeWire(base64: string) {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  // Every transaction the app builds is a legacy one (lib/chain/build-unsigned-transaction.ts).
  if (compiled.version !== 'legacy') throw new Error(`a ${compiled.version} message, not a legacy one`);
  return { transaction, compiled, message: decompileTransactionMessage(compiled) };
}

/** A test key pair (tests/support/keypair.ts) as a kit signer. */
export function signerOf(kp: TestKeypair): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(kp.secretKey);
}

/** A new key pair, as the tests hold it and as a kit signer. */
export async function newSigner(): Promise<{ keypair: TestKeypair; signer: KeyPairSigner }> {
  const keypair = newKeypair();
  return { keypair, signer: await signerOf(keypair) };
}

/** Airdrops SOL and waits until the cluster confirms it; the airdrop's signature. */
export async function airdrop(rpc: SolanaRpc, to: Address, sol = 10): Promise<Signature> {
  const signature = await rpc.requestAirdrop(to, lamports(BigInt(sol) * LAMPORTS_PER_SOL)).send();
  await reachAll(rpc, [signature], 'confirmed');
  return signature;
}

/** A new signer funded on the cluster. */
export async function fundedSigner(rpc: SolanaRpc, sol = 10): Promise<KeyPairSigner> {
  const { signer } = await newSigner();
  await airdrop(rpc, signer.address, sol);
  return signer;
}

/** Waits until every signature reaches `commitment` (polls getSignatureStatuses, 256 at a time). */
export async function reachAll(
  rpc: SolanaRpc,
  signatures: readonly string[],
  commitment: 'confirmed' | 'finalized',
  timeoutMs = 60_000,
  { refuseFailed = false } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...signatures] as Signature[];
  while (waiting.length > 0) {
    const still: Signature[] = [];
    for (let i = 0; i < waiting.length; i += 256) {
      const chunk = waiting.slice(i, i + 256);
      const { value } = await rpc.getSignatureStatuses(chunk, { searchTransactionHistory: true }).send();
      value.forEach((status, j) => {
        const reached =
          status &&
          (status.confirmationStatus === 'finalized' ||
            (commitment === 'confirmed' && status.confirmationStatus === 'confirmed'));
        if (refuseFailed && status?.err)
          throw new Error(
            `transaction ${chunk[j]} failed: ${JSON.stringify(status.err, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
          );
        if (!reached) still.push(chunk[j]!);
      });
    }
    waiting = still;
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting.length} signatures did not reach ${commitment}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type LatestBlockhash = Awaited<ReturnType<ReturnType<SolanaRpc['getLatestBlockhash']>['send']>>['value'];

/** The wire transaction (base64) of `instructions`, signed by the fee payer and every signer they carry. */
export async function signedWire(
  instructions: readonly Instruction[],
  feePayer: TransactionSigner,
  latest: LatestBlockhash,
): Promise<Base64EncodedWireTransaction> {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
}

/**
 * Signs with the fee payer and every signer the instructions carry, and sends; returns the
 * signature without waiting for it.
 */
export async function sendSigned(
  rpc: SolanaRpc,
  instructions: readonly Instruction[],
  feePayer: TransactionSigner,
  { skipPreflight = false } = {},
): Promise<Signature> {
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  return sendWire(rpc, await signedWire(instructions, feePayer, latest), { skipPreflight });
}

/** Sends signed wire bytes (base64), after the cluster's preflight at `confirmed` unless skipped; the signature (a refused one throws). */
export function sendWire(
  rpc: SolanaRpc,
  wire: Base64EncodedWireTransaction,
  { skipPreflight = false } = {},
): Promise<Signature> {
  return rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight, preflightCommitment: 'confirmed' }).send();
}

/**
 * `count` registrations by `owner`, sent with a few in flight; resolves with `{ tag, signature }`
 * in sending order once every one is finalized. Each hundred is signed before the first of it
 * is sent (kit signs asynchronously), so they are sent, and land, in that order; every
 * transaction is a block on localnet, and a blockhash lives 150 blocks, so each hundred gets
 * a fresh one.
 */
export async function registerMany(
  rpc: SolanaRpc,
  owner: TransactionSigner,
  count: number,
  prefix: string,
  inFlight = 8,
): Promise<{ tag: string; signature: Signature }[]> {
  const sent: { tag: string; signature: Signature }[] = [];
  for (let start = 0; start < count; start += 100) {
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const wires: { tag: string; wire: Base64EncodedWireTransaction }[] = [];
    for (let i = start; i < Math.min(count, start + 100); i++) {
      const tag = `${prefix}${i}`;
      wires.push({ tag, wire: await signedWire([await registration(owner, tag)], owner, latest) });
    }
    let next = 0;
    const worker = async () => {
      while (next < wires.length) {
        const i = next++;
        const { tag, wire } = wires[i]!;
        const signature = await rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true }).send();
        sent[start + i] = { tag, signature };
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  }
  await reachAll(
    rpc,
    sent.map((s) => s.signature),
    'finalized',
  );
  return sent;
}

/** A register_tag of the localnet's program, the owner paying; the payout wallet signs too and is the owner unless given. */
export function registration(
  owner: TransactionSigner,
  tag: string,
  wallet: TransactionSigner = owner,
): Promise<Instruction> {
  return getRegisterTagInstructionAsync(
    { owner, feePayer: owner, wallet, tag, walletArg: wallet.address },
    { programAddress: PROGRAM_ADDRESS },
  );
}

/** A register_tag sent straight to the cluster (not through the API), confirmed. */
export async function registerOnChain(
  rpc: SolanaRpc,
  owner: TransactionSigner,
  tag: string,
  wallet: TransactionSigner = owner,
): Promise<Signature> {
  const signature = await sendSigned(rpc, [await registration(owner, tag, wallet)], owner);
  await reachAll(rpc, [signature], 'confirmed', 30_000, { refuseFailed: true });
  return signature;
}

/** A wallet signed in to the app and funded on its chain: its session token, its keys as the tests and as kit hold them, its address. */
export interface Party {
  token: string;
  keypair: TestKeypair;
  signer: KeyPairSigner;
  key: Address;
}

export async function fundedParty(appUrl: string, rpc: SolanaRpc, sol?: number): Promise<Party> {
  const { token, keypair } = await signIn(appUrl, newKeypair());
  const signer = await signerOf(keypair);
  await airdrop(rpc, signer.address, sol);
  return { token, keypair, signer, key: signer.address };
}
