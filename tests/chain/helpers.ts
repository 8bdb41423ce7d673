import { existsSync } from 'node:fs';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  type TransactionSignature,
} from '@solana/web3.js';
import { startLocalnet, type Localnet, type LocalnetOptions } from '@/localnet';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { COMMITTED_SO } from '@/program/build';

export const PROGRAM_ID = new PublicKey(LOCALNET_PROGRAM_ID);

export interface TestNet {
  localnet: Localnet;
  connection: Connection;
  close(): Promise<void>;
}

/** A localnet on a free port and a `Connection` to it (confirmed reads unless told otherwise). */
export async function startTestNet(
  options: LocalnetOptions = {},
  commitment: 'confirmed' | 'finalized' = 'confirmed',
): Promise<TestNet> {
  // The localnet quietly starts without a program it cannot find; these tests need it.
  if (!existsSync(COMMITTED_SO))
    throw new Error(`${COMMITTED_SO} is missing: run \`npm run program:build\` (npm test does).`);
  const localnet = await startLocalnet({ port: 0, dataDir: null, ...options });
  const connection = new Connection(localnet.url, { commitment, disableRetryOnRateLimit: true });
  return {
    localnet,
    connection,
    async close() {
      await localnet.close();
    },
  };
}

export async function airdrop(connection: Connection, to: PublicKey, sol = 10): Promise<TransactionSignature> {
  const signature = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  return signature;
}

/**
 * A register_tag transaction, owner signing first, then the payout wallet when it is another
 * key (it consents by signing), and the sponsor (fee payer) last.
 */
export async function registerTransaction(
  connection: Connection,
  args: { tag: string; owner: Keypair; sponsor: Keypair; wallet?: Keypair },
): Promise<{ tx: Transaction; blockhash: string; lastValidBlockHeight: number }> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: args.sponsor.publicKey, blockhash, lastValidBlockHeight }).add(
    registerTagInstruction({
      programId: PROGRAM_ID,
      tag: args.tag,
      owner: args.owner.publicKey,
      wallet: (args.wallet ?? args.owner).publicKey,
      feePayer: args.sponsor.publicKey,
    }),
  );
  tx.partialSign(args.owner);
  if (args.wallet) tx.partialSign(args.wallet);
  tx.partialSign(args.sponsor);
  return { tx, blockhash, lastValidBlockHeight };
}

/** Raw JSON-RPC over fetch, for what `Connection` would never send. */
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
