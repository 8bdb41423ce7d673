// The compute budget of every transaction the service builds (DESIGN "Operating"), against
// the built app and the shared localnet (LiteSVM underneath, so a landed transaction's
// computeUnitsConsumed is LiteSVM's measure): both budget instructions first; a limit that
// covers what the instruction really costs for the dearest tag of a sample; a price that
// follows the cluster's recent fees for the accounts written and stops at the ceiling; a
// sponsored transaction that verifies after the owner signs, then the sponsor.
import {
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  lamports,
  partiallySignTransaction,
  verifySignature,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { parseConfig } from '@/lib/core/config';
import { isReservedTag } from '@/lib/core/tag';
import { readComputeBudget, type ComputeBudget } from '@/lib/chain/compute-budget';
import { findTagRecordAddress } from '@/program/pda';
import { randomTags } from '@/bench/program-cu-sample';
import { closeTestDb, testDb } from '../integrations/support';
import { registeredPayee } from '../support/registered-payee';
import {
  decodeWire,
  fundedParty,
  fundedSigner,
  PROGRAM_ADDRESS,
  reachAll,
  recordAddress,
  rpcAt,
  sendSigned,
  type Party,
} from '../support/chain';
import { afterBudget, landBuilt } from '../support/built-transactions';
import { newKeypair } from '../support/keypair';
import { postAuthed } from '../support/http';

const appUrl = inject('appUrl');
const rpcUrl = inject('rpcUrl');
const rpc = rpcAt(rpcUrl);
/** The app runs with the default policy: 75th percentile, this ceiling. */
const { priorityFee: POLICY } = parseConfig({});

const party = () => fundedParty(appUrl, rpc, 20);

/** The budget a built transaction (base64) carries, after checking that it comes first. */
function budgetOf(tx: string): ComputeBudget {
  const { message } = decodeWire(tx);
  afterBudget(message);
  const budget = readComputeBudget(message);
  expect(budget).not.toBeNull();
  return budget!;
}

/** Signs (in the order given), sends, waits, and answers what LiteSVM charged. */
async function land(tx: string, ...signers: KeyPairSigner[]): Promise<number> {
  return Number((await landBuilt(rpc, tx, ...signers)).meta.computeUnitsConsumed!);
}

/** Seeds the localnet as if every recent slot had a transaction writing `accounts` at this price. */
async function seedFees(prioritizationFee: number, accounts: Address[]): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'localnetSeedPrioritizationFees',
      params: [{ prioritizationFee, accounts }],
    }),
  });
  expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: null });
}

async function transfer(from: KeyPairSigner, to: Address, amount: bigint): Promise<void> {
  const signature = await sendSigned(
    rpc,
    [getTransferSolInstruction({ source: from, destination: to, amount: lamports(amount) })],
    from,
  );
  await reachAll(rpc, [signature], 'confirmed');
}

const register = (who: Party, body: object) => postAuthed(`${appUrl}/v1/register`, who.token, body);
const lifecycle = (who: Party, tag: string, path: string, body: object = {}) =>
  postAuthed(`${appUrl}/v1/identity/${tag}/${path}`, who.token, body);

/** Of many random tags, the dearest to register: fewest bumps left (most tried), then longest. */
function dearestTag(count: number): { tag: string; bump: number } {
  const ranked = randomTags(count)
    .filter((tag) => !isReservedTag(tag))
    .map((tag) => ({ tag, bump: findTagRecordAddress(tag, PROGRAM_ADDRESS)[1] }))
    .sort((a, b) => a.bump - b.bump || b.tag.length - a.tag.length);
  return ranked[0]!;
}

let alice: Party;
let bob: Party;

beforeAll(async () => {
  [alice, bob] = await Promise.all([party(), party()]);
  // A node holds 150 recent slots; fill them, so that the few slots other test files land
  // between a seed and a build cannot move a percentile.
  const held = (await rpc.getRecentPrioritizationFees().send()).length;
  const filler = newKeypair().publicKey as Address;
  // Each airdrop its own amount: kit's RPC sends identical requests made at once only once.
  await Promise.all(
    Array.from({ length: Math.max(0, 150 - held) }, (_, i) =>
      rpc.requestAirdrop(filler, lamports(1_000_000n + BigInt(i))).send(),
    ),
  );
  expect((await rpc.getRecentPrioritizationFees().send()).length).toBe(150);
});
afterAll(() => closeTestDb());

describe('compute limits cover the real cost', () => {
  it('register_tag: the dearest of 1,000 random tags, at a PDA someone sent lamports to (the dearest path)', async () => {
    const { tag, bump } = dearestTag(1_000);
    // Lamports at the PDA do not make the tag taken; register_tag then tops up, allocates and assigns.
    await transfer(bob.signer, await recordAddress(tag), 1_000_000n);
    expect((await (await fetch(`${appUrl}/v1/availability/${tag}`)).json()).available).toBe(true);
    const res = await register(alice, { tag });
    expect(res.status, res.text).toBe(200);
    const tx: string = res.json.transaction;
    const budget = budgetOf(tx);
    const consumed = await land(tx, alice.signer);
    expect(consumed, `${tag} (bump ${bump})`).toBeLessThanOrEqual(budget.units);
    // Sized to the tag, not a flat ceiling: the limit stays within the margin of the cost.
    expect(budget.units).toBeLessThanOrEqual(Math.ceil(consumed * 1.2) + 400);
  });

  it('each lifecycle call, on a 32-byte tag (the dearest: the hash and the log line grow with it)', async () => {
    const tag = `lc${randomTag('').slice(0, 30)}`.padEnd(32, '0').slice(0, 32);
    expect(tag).toHaveLength(32);
    await land((await register(alice, { tag })).json.transaction, alice.signer);
    const steps: Array<[string, Party, string, object]> = [
      ['set_wallet', alice, 'wallet', { wallet: alice.key }], // the owner as wallet: the dearer form
      ['offer_transfer', alice, 'transfer', { newOwner: bob.key }],
      ['cancel_transfer', alice, 'transfer/cancel', {}],
      ['offer_transfer again', alice, 'transfer', { newOwner: bob.key }],
      ['accept_transfer', bob, 'transfer/accept', {}],
      ['release_tag', bob, 'release', { receiver: alice.key }],
    ];
    for (const [name, who, path, body] of steps) {
      const res = await lifecycle(who, tag, path, body);
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      const tx: string = res.json.transaction;
      const budget = budgetOf(tx);
      const consumed = await land(tx, who.signer);
      expect(consumed, name).toBeLessThanOrEqual(budget.units);
      expect(budget.units, name).toBeLessThanOrEqual(Math.ceil(consumed * 1.2) + 400);
    }
  });

  it('the pay Action (SOL): a System transfer at its known cost', async () => {
    const { row } = await registeredPayee((await testDb()).db, rpcAt(rpcUrl), { wallet: bob.signer });
    const res = await postAuthed(`${appUrl}/api/actions/pay/${row.tag}?amount=0.01`, null, { account: alice.key });
    expect(res.status, res.text).toBe(200);
    const tx: string = res.json.transaction;
    const budget = budgetOf(tx);
    expect(await land(tx, alice.signer)).toBeLessThanOrEqual(budget.units);
  });
});

describe('the price follows the cluster and stops at the ceiling', () => {
  it('register: the recent fees of the PDA and the fee payer, at the 75th percentile, then capped', async () => {
    const sponsor = await fundedSigner(rpc);
    const tag = randomTag('fee');
    const pda = await recordAddress(tag);
    const priced = async (feePayer?: Address) => {
      const res = await register(alice, { tag, ...(feePayer ? { feePayer } : {}) });
      expect(res.status, res.text).toBe(200);
      return budgetOf(res.json.transaction).microLamports;
    };
    expect(await priced()).toBe(0); // nothing paid for these accounts lately

    await seedFees(12_345, [pda]);
    expect(await priced()).toBe(12_345);

    await seedFees(67_890, [alice.key]); // the fee payer's account is written too
    expect(await priced()).toBe(67_890);

    await seedFees(POLICY.maxMicroLamports * 10, [sponsor.address]);
    expect(await priced(sponsor.address)).toBe(POLICY.maxMicroLamports);
  });

  it('a lifecycle call and the pay Action price their own writable accounts', async () => {
    const carol = await party(); // a payer whose account nothing has seeded
    const tag = randomTag('lf');
    await land((await register(carol, { tag })).json.transaction, carol.signer);
    await seedFees(4_321, [await recordAddress(tag)]);
    const wallet = await lifecycle(carol, tag, 'wallet', { wallet: bob.key });
    expect(budgetOf(wallet.json.transaction).microLamports).toBe(4_321);

    const payout = newKeypair();
    const { row } = await registeredPayee((await testDb()).db, rpcAt(rpcUrl), { wallet: payout });
    await seedFees(POLICY.maxMicroLamports + 1, [payout.publicKey as Address]);
    const pay = await postAuthed(`${appUrl}/api/actions/pay/${row.tag}?amount=0.01`, null, { account: carol.key });
    expect(budgetOf(pay.json.transaction).microLamports).toBe(POLICY.maxMicroLamports);
  });
});

describe('a sponsored registration', () => {
  it('verifies after the owner signs, then the sponsor, with the budget the service chose unchanged, and lands', async () => {
    const sponsor = await fundedSigner(rpc);
    const tag = randomTag('spb');
    const res = await register(alice, { tag, feePayer: sponsor.address });
    expect(res.status, res.text).toBe(200);
    const unsigned = decodeWire(res.json.transaction).transaction;
    const budget = budgetOf(res.json.transaction);
    const verifies = async (tx: typeof unsigned, signer: Address) =>
      verifySignature(await getPublicKeyFromAddress(signer), tx.signatures[signer]!, tx.messageBytes);

    const byOwner = await partiallySignTransaction([alice.signer.keyPair], unsigned); // the owner first (a wallet may not change what it received signed)
    expect(await verifies(byOwner, alice.key)).toBe(true);
    expect(byOwner.signatures[sponsor.address]).toBeNull(); // the sponsor's is still missing
    const bySponsor = await partiallySignTransaction([sponsor.keyPair], byOwner); // the sponsor last
    expect(await verifies(bySponsor, alice.key)).toBe(true);
    expect(await verifies(bySponsor, sponsor.address)).toBe(true);
    expect(Buffer.from(bySponsor.messageBytes).equals(Buffer.from(unsigned.messageBytes))).toBe(true);
    const wire = getBase64EncodedWireTransaction(bySponsor);
    expect(readComputeBudget(decodeWire(wire).message)).toEqual(budget);
    expect(getCompiledTransactionMessageDecoder().decode(bySponsor.messageBytes).header.numSignerAccounts).toBe(2);

    const consumed = await land(wire);
    expect(consumed).toBeLessThanOrEqual(budget.units);
  });
});
