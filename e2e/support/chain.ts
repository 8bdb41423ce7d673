import type { Page } from '@playwright/test';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import type { TestKeypair } from '@/tests/support/keypair';
import { expect } from './fixtures';

// The localnet from Node, as a wallet app or another person would use it: fund a key, register a tag.

const PROGRAM_ID = new PublicKey(LOCALNET_PROGRAM_ID);

export function rpc(): Connection {
  const url = process.env.E2E_RPC_URL;
  if (!url) throw new Error('E2E_RPC_URL is not set: run through playwright.config.ts.');
  return new Connection(url, 'confirmed');
}

export async function fund(connection: Connection, key: TestKeypair): Promise<void> {
  const signature = await connection.requestAirdrop(
    Keypair.fromSecretKey(key.secretKey).publicKey,
    5 * LAMPORTS_PER_SOL,
  );
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, 'confirmed');
}

/** `owner` registers `tag` on chain (as the register page would), and /v1/sync mirrors it. */
export async function registerOnChain(
  page: Page,
  connection: Connection,
  owner: TestKeypair,
  tag: string,
): Promise<void> {
  const signer = Keypair.fromSecretKey(owner.secretKey);
  const tx = new Transaction({ feePayer: signer.publicKey, ...(await connection.getLatestBlockhash('confirmed')) }).add(
    registerTagInstruction({
      programId: PROGRAM_ID,
      tag,
      owner: signer.publicKey,
      wallet: signer.publicKey,
      feePayer: signer.publicKey,
    }),
  );
  tx.sign(signer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, 'finalized');
  const synced = await page.request.post('/v1/sync', { data: { signature } });
  expect(synced.status()).toBe(200);
}

/** What the journey pays when the link names no amount. */
export const DEFAULT_PAYMENT_SOL = 0.01;

/**
 * Pays a Solana Pay transfer request in SOL (`solana:<recipient>?amount=…&reference=…`) as a
 * wallet app would: a system transfer to the recipient, each reference a read-only key of it.
 * Returns the lamports sent.
 */
export async function payTransferRequest(connection: Connection, payer: Keypair, link: URL): Promise<number> {
  expect(link.protocol).toBe('solana:');
  expect(link.searchParams.get('spl-token'), 'a SOL transfer request').toBeNull();
  const amount = link.searchParams.get('amount');
  const lamports = Math.round((amount ? Number(amount) : DEFAULT_PAYMENT_SOL) * LAMPORTS_PER_SOL);
  const transfer = SystemProgram.transfer({
    fromPubkey: payer.publicKey,
    toPubkey: new PublicKey(link.pathname),
    lamports,
  });
  for (const reference of link.searchParams.getAll('reference'))
    transfer.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  const latest = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(transfer);
  tx.sign(payer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  expect(value.err).toBeNull();
  return lamports;
}
