import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { getChain, type Chain } from '@/lib/chain/rpc';
import { parseConfig } from '@/lib/core/config';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { newKeypair, type TestKeypair } from './keypair';
import { signIn } from './sign-in';

/*
 * The chain as the tests use it: the localnet's program, funded keys, sending and waiting for
 * transactions, registrations sent straight to the cluster (not through the API).
 */

export const PROGRAM_ID = new PublicKey(LOCALNET_PROGRAM_ID);

export function web3Keypair(kp: TestKeypair): Keypair {
  return Keypair.fromSecretKey(kp.secretKey);
}

/** The cluster at `rpcUrl` and the localnet's program, as the app's services are handed them (lib/chain/rpc.ts `getChain`). */
export function chainAt(rpcUrl: string): Chain {
  return getChain(parseConfig({ SOLANA_RPC_URL: rpcUrl }));
}

export function connect(rpcUrl: string): Connection {
  return new Connection(rpcUrl, 'confirmed');
}

/** Airdrops SOL and waits until the cluster confirms it. */
export async function fund(connection: Connection, key: PublicKey, sol = 10): Promise<void> {
  const signature = await connection.requestAirdrop(key, sol * LAMPORTS_PER_SOL);
  await confirmed(connection, signature);
}

/** A wallet signed in to the app and funded on its chain: its session token, its keys as the tests and as web3.js hold them, its address. */
export interface Party {
  token: string;
  keypair: TestKeypair;
  signer: Keypair;
  key: string;
}

export async function fundedParty(appUrl: string, connection: Connection, sol?: number): Promise<Party> {
  const { token, keypair } = await signIn(appUrl, newKeypair());
  const signer = web3Keypair(keypair);
  await fund(connection, signer.publicKey, sol);
  return { token, keypair, signer, key: keypair.publicKey };
}

/** Waits until the signature reaches `commitment` (polls getSignatureStatuses). */
export async function confirmed(
  connection: Connection,
  signature: string,
  commitment: 'confirmed' | 'finalized' = 'confirmed',
  timeoutMs = 30_000,
): Promise<void> {
  await allReach(connection, [signature], commitment, timeoutMs);
}

export async function allReach(
  connection: Connection,
  signatures: string[],
  commitment: 'confirmed' | 'finalized',
  timeoutMs = 60_000,
  { refuseFailed = false } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...signatures];
  while (waiting.length > 0) {
    const still: string[] = [];
    for (let i = 0; i < waiting.length; i += 256) {
      const chunk = waiting.slice(i, i + 256);
      const { value } = await connection.getSignatureStatuses(chunk, { searchTransactionHistory: true });
      value.forEach((status, j) => {
        const reached =
          status &&
          (status.confirmationStatus === 'finalized' ||
            (commitment === 'confirmed' && status.confirmationStatus === 'confirmed'));
        if (refuseFailed && status?.err)
          throw new Error(`transaction ${chunk[j]} failed: ${JSON.stringify(status.err)}`);
        if (!reached) still.push(chunk[j]!);
      });
    }
    waiting = still;
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting.length} signatures did not reach ${commitment}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Signs with every signer (fee payer first) and sends; returns the signature. */
export async function sendInstructions(
  connection: Connection,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  opts: { skipPreflight?: boolean } = {},
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
  tx.sign(...signers);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: opts.skipPreflight ?? false });
}

/** A register_tag sent straight to the cluster (not through the API), owner paying; a payout wallet of its own signs too. */
export function registerDirect(
  connection: Connection,
  owner: Keypair,
  tag: string,
  wallet: Keypair = owner,
): Promise<string> {
  const instruction = ownRegistration(owner, tag, wallet.publicKey);
  return sendInstructions(connection, [instruction], wallet === owner ? [owner] : [owner, wallet]);
}

/**
 * `count` registrations sent with a few in flight, all by `owner`; resolves with
 * `{ tag, signature }` in sending order once every one is finalized.
 */
export async function registerMany(
  connection: Connection,
  owner: Keypair,
  count: number,
  prefix: string,
  inFlight = 8,
): Promise<{ tag: string; signature: string }[]> {
  const sent: { tag: string; signature: string }[] = new Array(count);
  let next = 0;
  let latest = await connection.getLatestBlockhash('confirmed');
  let latestAt = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Every transaction is a block on localnet, and a blockhash lives 150 blocks.
      if (i - latestAt >= 100) {
        latest = await connection.getLatestBlockhash('confirmed');
        latestAt = i;
      }
      const tag = `${prefix}${i}`;
      const tx = new Transaction({ feePayer: owner.publicKey, ...latest }).add(ownRegistration(owner, tag));
      tx.sign(owner);
      sent[i] = { tag, signature: await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true }) };
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  await allReach(
    connection,
    sent.map((s) => s.signature),
    'finalized',
  );
  return sent;
}

/** A register_tag of the localnet's program with the owner paying; the payout wallet is the owner's unless given. */
export function ownRegistration(
  owner: Keypair,
  tag: string,
  wallet: PublicKey = owner.publicKey,
): TransactionInstruction {
  return registerTagInstruction({
    programId: PROGRAM_ID,
    tag,
    owner: owner.publicKey,
    wallet,
    feePayer: owner.publicKey,
  });
}
