import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Signature,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, inject, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { BlockHeightExceededError, RpcError } from '@/lib/web/browser/client-errors';
import { browserRpc } from '@/lib/web/browser/rpc';
import { classifyFailure } from '@/lib/web/browser/transaction-flow';
import { airdrop, newSigner, rpcAt } from '@/tests/support/chain';
import { newKeypair } from '@/tests/support/keypair';
import { startRpcProxy } from '@/tests/support/rpc-proxy';

/*
 * The pages' JSON-RPC over fetch (lib/web/browser/rpc.ts) against the localnet: what the
 * register page reads, the test wallet's airdrop, a send and its confirmation, and the
 * cluster's refusals as the transaction flow names them. The tests' own side is kit.
 */
const rpcUrl = inject('rpcUrl');
const rpc = browserRpc(rpcUrl);
const kit = rpcAt(rpcUrl);
const LAMPORTS_PER_SOL = 1_000_000_000;

/** A signed SOL transfer of `amount` lamports from a key funded with `sol`, and its lastValidBlockHeight. */
async function transfer(sol: number, amount: number) {
  const { signer: from } = await newSigner();
  if (sol > 0) await airdrop(kit, from.address, sol);
  const to = newKeypair().publicKey;
  const { value: latest } = await kit.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source: from, destination: address(to), amount: lamports(BigInt(amount)) })],
        m,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const wire = new Uint8Array(getTransactionEncoder().encode(signed));
  return { wire, to, lastValidBlockHeight: Number(latest.lastValidBlockHeight) };
}

describe('browserRpc on the localnet', () => {
  it("reads the record's rent as the cluster answers it", async () => {
    expect(await rpc.getMinimumBalanceForRentExemption(TAG_RECORD_SIZE)).toBe(
      Number(await kit.getMinimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE)).send()),
    );
  });

  it('airdrops, confirmed, and reads the balance', async () => {
    const key = newKeypair().publicKey;
    await rpc.airdrop(key, 2 * LAMPORTS_PER_SOL);
    expect(await rpc.getBalance(key)).toBe(2 * LAMPORTS_PER_SOL);
  });

  it('sends signed wire bytes and confirms them before the last valid block height', async () => {
    const { wire, to, lastValidBlockHeight } = await transfer(1, 1_000_000);
    const signature = await rpc.sendTransaction(wire);
    await rpc.confirm(signature, lastValidBlockHeight);
    expect(await rpc.getBalance(to)).toBe(1_000_000);
    const { value } = await kit.getSignatureStatuses([signature as Signature]).send();
    expect(value[0]?.err).toBeNull();
  });

  it("refuses in preflight with the cluster's message, which the flow names", async () => {
    const { wire } = await transfer(0, 1_000_000);
    const refusal = await rpc.sendTransaction(wire).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(RpcError);
    expect(classifyFailure('sending', refusal).kind).toBe('insufficient-funds');
  });

  it('gives up once the cluster passes the last valid block height', async () => {
    const passed = Number(await kit.getBlockHeight({ commitment: 'confirmed' }).send()) - 1;
    // A signature the cluster never saw (64 zero bytes): its status stays null.
    const expiry = await rpc.confirm('1'.repeat(64), passed).catch((err: unknown) => err);
    expect(expiry).toBeInstanceOf(BlockHeightExceededError);
    expect(classifyFailure('confirming', expiry).kind).toBe('blockhash-expired');
  });

  it("waits out a provider's 429 for as long as its Retry-After asks, then answers", async () => {
    let refusals = 0;
    const limited = await startRpcProxy(rpcUrl, () =>
      refusals++ < 2 ? { status: 429, text: 'Too many requests', headers: { 'retry-after': '1' } } : undefined,
    );
    try {
      const started = performance.now();
      expect(await browserRpc(limited.url).getMinimumBalanceForRentExemption(TAG_RECORD_SIZE)).toBeGreaterThan(0);
      expect(refusals).toBe(3);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    } finally {
      await limited.close();
    }
  });
});
