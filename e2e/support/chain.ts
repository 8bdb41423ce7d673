import type { Page } from '@playwright/test';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports as toLamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { getRegisterTagInstructionAsync, LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import type { TestKeypair } from '@/tests/support/keypair';
import { expect } from './fixtures';

// The localnet from Node, as a wallet app or another person would use it, on kit: fund a key,
// register a tag, pay a Solana Pay request.

export const LAMPORTS_PER_SOL = 1_000_000_000;
export type E2eRpc = Rpc<SolanaRpcApi>;

export function rpc(): E2eRpc {
  const url = process.env.E2E_RPC_URL;
  if (!url) throw new Error('E2E_RPC_URL is not set: run through playwright.config.ts.');
  return createSolanaRpc(url);
}

/** Polls the signature's status until it reaches `commitment`; fails on a transaction that failed. */
export async function reached(
  connection: E2eRpc,
  signature: Signature,
  commitment: 'confirmed' | 'finalized',
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [status] = (await connection.getSignatureStatuses([signature]).send()).value;
    expect(status?.err ?? null).toBeNull();
    if (status?.confirmationStatus === 'finalized' || status?.confirmationStatus === commitment) return;
    if (Date.now() > deadline) throw new Error(`${signature} did not reach ${commitment}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Airdrops SOL to `to` and waits until it is confirmed. */
export async function airdropTo(connection: E2eRpc, to: Address, sol = 5): Promise<void> {
  const signature = await connection.requestAirdrop(to, toLamports(BigInt(sol * LAMPORTS_PER_SOL))).send();
  await reached(connection, signature, 'confirmed');
}

export async function fund(connection: E2eRpc, key: TestKeypair): Promise<void> {
  await airdropTo(connection, address(key.publicKey));
}

/** A test key pair (tests/support/keypair.ts) as a kit signer. */
export const signerOf = (key: TestKeypair | Uint8Array): Promise<KeyPairSigner> =>
  createKeyPairSignerFromBytes(key instanceof Uint8Array ? key : key.secretKey);

/** Signs `instructions` with the fee payer and every signer they carry, sends them with preflight; the signature. */
export async function sendSigned(
  connection: E2eRpc,
  feePayer: KeyPairSigner,
  instructions: Instruction[],
): Promise<Signature> {
  const { value: latest } = await connection.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  await connection
    .sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64', preflightCommitment: 'confirmed' })
    .send();
  return getSignatureFromTransaction(tx);
}

/** `owner` registers `tag` on chain (as the register page would), and /v1/sync mirrors it. */
export async function registerOnChain(page: Page, connection: E2eRpc, owner: TestKeypair, tag: string): Promise<void> {
  const signer = await signerOf(owner);
  const register = await getRegisterTagInstructionAsync(
    { owner: signer, feePayer: signer, wallet: signer, tag, walletArg: signer.address },
    { programAddress: LOCALNET_PROGRAM_ID as Address },
  );
  const signature = await sendSigned(connection, signer, [register]);
  await reached(connection, signature, 'finalized');
  const synced = await page.request.post('/v1/sync', { data: { signature } });
  expect(synced.status()).toBe(200);
}

/** What the journey pays when the link names no amount. */
export const DEFAULT_PAYMENT_SOL = 0.01;

/**
 * Pays a Solana Pay transfer request in SOL (`solana:<recipient>?amount=…&reference=…`) as a
 * wallet app would: a system transfer to the recipient, each reference a read-only key of it.
 * Returns the lamports sent and the signature, once confirmed.
 */
export async function payTransferRequest(
  connection: E2eRpc,
  payer: KeyPairSigner,
  link: URL,
): Promise<{ lamports: number; signature: Signature }> {
  expect(link.protocol).toBe('solana:');
  expect(link.searchParams.get('spl-token'), 'a SOL transfer request').toBeNull();
  const amount = link.searchParams.get('amount');
  const lamports = Math.round((amount ? Number(amount) : DEFAULT_PAYMENT_SOL) * LAMPORTS_PER_SOL);
  const transfer = getTransferSolInstruction({
    source: payer,
    destination: address(link.pathname),
    amount: BigInt(lamports),
  });
  const references = link.searchParams
    .getAll('reference')
    .map((reference) => ({ address: address(reference), role: AccountRole.READONLY }));
  const withReferences = { ...transfer, accounts: [...transfer.accounts, ...references] };
  const signature = await sendSigned(connection, payer, [withReferences]);
  await reached(connection, signature, 'confirmed');
  return { lamports, signature };
}

/** The lamports `of` holds, as a confirmed read. */
export async function balanceOf(connection: E2eRpc, of: string): Promise<number> {
  return Number((await connection.getBalance(address(of), { commitment: 'confirmed' }).send()).value);
}
