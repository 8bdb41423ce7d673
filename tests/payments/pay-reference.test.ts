import type { Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { staleReferenceReason } from '@/lib/features/payments/pay-reference';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { airdrop, newSigner, rpcAt } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { postJson } from '../support/http';
import { appUrl, closeTestDb, requireApp, testDb } from '../integrations/support';
import { registeredPayee } from '../support/registered-payee';

/*
 * A Solana Pay `reference` the payer's app chooses must be a fresh key (lib/features/payments/
 * pay-reference.ts): the payer, the payout wallet, a program or a sysvar are named by countless
 * other transactions, so a payment found by them would be anybody's. 400 in the envelope.
 */

beforeAll(requireApp);
afterAll(closeTestDb);

const rpc = rpcAt(inject('rpcUrl'));
const refused = (reason: string) => {
  const message = `\`reference\`: must be a fresh key that no other transaction names; this one ${reason}`;
  return { error: { code: 'invalid_request', message }, message }; // an Action's errors carry the spec's top-level `message` too
};

describe('POST /api/actions/pay/{tag}: the reference must be a fresh key', () => {
  const payer = newKeypair().publicKey;
  const payout = newKeypair();
  const wallet = payout.publicKey;
  let tag = '';
  beforeAll(async () => {
    // Registered on the localnet: the Action reads the tag's record there before anything else.
    tag = (await registeredPayee((await testDb()).db, rpc, { wallet: payout })).tag;
  });
  const pay = (reference: string) =>
    postJson(`${appUrl}/api/actions/pay/${tag}?amount=1&reference=${reference}`, { account: payer });

  it.each([
    ['the payer', () => payer, 'is the payer'],
    ['the payout wallet', () => wallet, 'is the payout wallet'],
    ['the System Program', () => '11111111111111111111111111111111', 'is a program'],
    ['the Token Program', () => 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'is a program'],
    ['the Memo Program', () => 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'is a program'],
    ['the Clock sysvar', () => 'SysvarC1ock11111111111111111111111111111111', 'is a sysvar'],
    ['the Rent sysvar', () => 'SysvarRent111111111111111111111111111111111', 'is a sysvar'],
    ['a program not in the table (the tag registry, executable on chain)', () => LOCALNET_PROGRAM_ID, 'is a program'],
  ])('%s: 400', async (_name, reference, reason) => {
    const res = await pay(reference());
    expect([res.status, res.json]).toEqual([400, refused(reason)]);
  });

  it('an account that already exists on chain: 400', async () => {
    const someone = (await newSigner()).signer.address;
    await airdrop(rpc, someone, 1);
    const res = await pay(someone);
    expect([res.status, res.json]).toEqual([400, refused('holds an account already')]);
  });

  it('a fresh key: 200, the transfer carries it', async () => {
    const reference = newKeypair().publicKey;
    const res = await pay(reference);
    expect(res.status, res.text).toBe(200);
    expect((res.json as { reference: string }).reference).toBe(reference);
  });

  it('what is known without the cluster is refused without asking it', () => {
    const keys = { payer, wallet };
    expect(staleReferenceReason('SysvarRecentB1ockHashes11111111111111111111' as Address, keys)).toBe('is a sysvar');
    expect(staleReferenceReason(newKeypair().publicKey, keys)).toBeNull();
  });
});
