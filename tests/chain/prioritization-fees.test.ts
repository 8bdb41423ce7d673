// getRecentPrioritizationFees on the localnet, as a cluster answers it: per recent slot, from
// the compute-unit prices of the transactions that landed and the accounts they wrote.
import { ComputeBudgetProgram, Keypair, SystemProgram, Transaction, type Connection } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airdrop, rawRpc, startTestNet, type TestNet } from './helpers';

let net: TestNet;
let connection: Connection;
const payer = Keypair.generate();

beforeAll(async () => {
  net = await startTestNet();
  connection = net.connection;
  await airdrop(connection, payer.publicKey, 100);
});
afterAll(() => net?.close());

/** A transfer to `to` paying `microLamports` per unit: it write-locks the payer and `to`. */
async function transferPaying(microLamports: number, to = Keypair.generate().publicKey): Promise<number> {
  const latest = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_000_000 }),
  );
  tx.sign(payer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await connection.confirmTransaction({ signature, ...latest });
  return (await connection.getTransaction(signature))!.slot;
}

describe('getRecentPrioritizationFees', () => {
  it('reports the price each landed transaction paid, in its slot, oldest slot first', async () => {
    const hot = Keypair.generate().publicKey;
    const slot = await transferPaying(7_000, hot);
    const all = await connection.getRecentPrioritizationFees();
    expect(all.find((f) => f.slot === slot)).toEqual({ slot, prioritizationFee: 7_000 });
    expect(all.map((f) => f.slot)).toEqual([...all.map((f) => f.slot)].sort((a, b) => a - b));
    expect(
      (await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [hot] })).find((f) => f.slot === slot)
        ?.prioritizationFee,
    ).toBe(7_000);
  });

  it('filters by account: a slot costs an account what the cheapest transaction writing it paid, at least the slot minimum', async () => {
    const hot = Keypair.generate().publicKey;
    const cold = Keypair.generate().publicKey;
    const slot = await transferPaying(0);
    const seed = await rawRpc(
      net.localnet.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'localnetSeedPrioritizationFees',
        params: [{ prioritizationFee: 50_000, accounts: [hot.toBase58()], slots: 1 }],
      }),
    );
    expect(seed.body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    const at = async (accounts: (typeof hot)[]) =>
      (await connection.getRecentPrioritizationFees({ lockedWritableAccounts: accounts })).find((f) => f.slot === slot)
        ?.prioritizationFee;
    expect(await at([])).toBe(0); // the slot's cheapest transaction paid nothing
    expect(await at([cold])).toBe(0);
    expect(await at([hot])).toBe(50_000);
    expect(await at([cold, hot])).toBe(50_000);
  });

  it('keeps 150 slots', async () => {
    const many = Keypair.generate().publicKey;
    await rawRpc(
      net.localnet.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'localnetSeedPrioritizationFees',
        params: [{ prioritizationFee: 1, accounts: [many.toBase58()] }],
      }),
    );
    for (let i = 0; i < 152; i++) await connection.requestAirdrop(many, 1_000_000);
    expect((await connection.getRecentPrioritizationFees()).length).toBe(150);
  });

  it('refuses more than 128 accounts, as a validator does', async () => {
    const keys = Array.from({ length: 129 }, () => Keypair.generate().publicKey.toBase58());
    const res = await rawRpc(
      net.localnet.url,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getRecentPrioritizationFees', params: [keys] }),
    );
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: Too many inputs provided; max 128' },
    });
  });
});
