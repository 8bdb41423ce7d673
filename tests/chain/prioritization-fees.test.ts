// getRecentPrioritizationFees on the localnet, as a cluster answers it: per recent slot, from
// the compute-unit prices of the transactions that landed and the accounts they wrote.
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { generateKeyPairSigner, lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airdrop, rawRpc, reached, sendWire, signed, startTestNet, transfer, type TestNet } from './helpers';

let net: TestNet;
let payer: KeyPairSigner;

beforeAll(async () => {
  net = await startTestNet();
  payer = await generateKeyPairSigner();
  await airdrop(net.rpc, payer.address, 100);
});
afterAll(() => net?.close());

const someAddress = async (): Promise<Address> => (await generateKeyPairSigner()).address;

/** A transfer to `to` paying `microLamports` per unit: it write-locks the payer and `to`; its slot. */
async function transferPaying(microLamports: number, to?: Address): Promise<bigint> {
  const instructions = [
    getSetComputeUnitPriceInstruction({ microLamports }),
    transfer(payer, to ?? (await someAddress()), 1_000_000n),
  ];
  const signature = await sendWire(net.rpc, await signed(net.rpc, payer, instructions));
  await reached(net.rpc, signature);
  const landed = await net.rpc
    .getTransaction(signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 })
    .send();
  return landed!.slot;
}

const fees = (lockedWritableAccounts?: Address[]) => net.rpc.getRecentPrioritizationFees(lockedWritableAccounts).send();

describe('getRecentPrioritizationFees', () => {
  it('reports the price each landed transaction paid, in its slot, oldest slot first', async () => {
    const hot = await someAddress();
    const slot = await transferPaying(7_000, hot);
    const all = await fees();
    expect(all.find((f) => f.slot === slot)).toEqual({ slot, prioritizationFee: 7_000n });
    expect(all.map((f) => f.slot)).toEqual([...all.map((f) => f.slot)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await fees([hot])).find((f) => f.slot === slot)?.prioritizationFee).toBe(7_000n);
  });

  it('filters by account: a slot costs an account what the cheapest transaction writing it paid, at least the slot minimum', async () => {
    const hot = await someAddress();
    const cold = await someAddress();
    const slot = await transferPaying(0);
    const seed = await rawRpc(
      net.localnet.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'localnetSeedPrioritizationFees',
        params: [{ prioritizationFee: 50_000, accounts: [hot], slots: 1 }],
      }),
    );
    expect(seed.body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    const at = async (accounts: Address[]) => (await fees(accounts)).find((f) => f.slot === slot)?.prioritizationFee;
    expect(await at([])).toBe(0n); // the slot's cheapest transaction paid nothing
    expect(await at([cold])).toBe(0n);
    expect(await at([hot])).toBe(50_000n);
    expect(await at([cold, hot])).toBe(50_000n);
  });

  it('keeps 150 slots', async () => {
    const many = await someAddress();
    await rawRpc(
      net.localnet.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'localnetSeedPrioritizationFees',
        params: [{ prioritizationFee: 1, accounts: [many] }],
      }),
    );
    for (let i = 0; i < 152; i++) await net.rpc.requestAirdrop(many, lamports(1_000_000n)).send();
    expect((await fees()).length).toBe(150);
  });

  it('refuses more than 128 accounts, as a validator does', async () => {
    const keys = await Promise.all(Array.from({ length: 129 }, someAddress));
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
