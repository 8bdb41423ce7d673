import type { Address, KeyPairSigner } from '@solana/kit';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { MEMO_PROGRAM_ID, identityMemo, serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { findPayments } from '@/lib/features/payments/find-payments';
import { ownDatabase } from '../support/database';
import { decodeWire, newSigner, rpcAt } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { landBuilt } from '../support/built-transactions';
import { registeredPayee } from '../support/registered-payee';
import { heldInProcessApp } from '../support/in-process';
import { findingAt, fundedPayer, payWithReference } from './paying';

/*
 * Attribution (docs/integrators.md, "Telling our payments from copies"): a transaction the pay
 * Action built carries the service identity's signed memo and its receipt says `attributed:
 * true`; the same reference paid by a wallet that copied it, without the memo or with a memo
 * whose signature is not the identity's, pays just the same and says `attributed: false`.
 * Everything on the shared localnet, signed by real keys.
 */

const rpc = rpcAt(inject('rpcUrl'));

describe('the Action Identity memo', () => {
  const database = ownDatabase();
  const app = heldInProcessApp({}, { database });
  const identity = () => serviceIdentity(app().config.actionIdentitySecret);

  async function payee() {
    const { tag, wallet } = await registeredPayee(database.db, rpc, {
      wallet: (await newSigner()).signer,
      row: { tag: randomTag('attr_') },
    });
    return { tag, wallet: wallet.address };
  }

  const funded = () => fundedPayer(rpc);

  async function issue(tag: string, amount: string): Promise<string> {
    const res = await app().fetch('/v1/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tag, amount, asset: 'SOL' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { reference: string }).reference;
  }

  async function receipt(reference: string): Promise<Record<string, unknown>> {
    const res = await app().fetch(`/v1/payments/${reference}`);
    expect(res.status).toBe(200);
    return res.json();
  }

  const find = () =>
    findPayments({
      db: database.db,
      cluster: findingAt(inject('rpcUrl')),
      now: new Date(),
      identity: identity().address,
    });

  /** A wallet's own transfer carrying the reference, and `memo` when given. */
  const payOwnWay = (payer: KeyPairSigner, to: Address, lamports: number, reference: string, memo?: string) =>
    payWithReference(rpc, payer, { to, lamports, reference, memo });

  it('a payment through the pay Action carries the memo and is attributed', async () => {
    const { tag, wallet } = await payee();
    const payer = await funded();
    const res = await app().fetch(`/api/actions/pay/${tag}?amount=0.02`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: payer.address }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { transaction: string; reference: string };
    expect(await receipt(answer.reference)).toMatchObject({ status: 'pending', recipient: wallet });
    const { compiled } = decodeWire(answer.transaction);
    // The memo as the Actions spec writes it, and the identity a read-only key of the transaction.
    const keys: string[] = compiled.staticAccounts;
    expect(keys).toContain(identity().address);
    const memo = compiled.instructions
      .filter((ix) => keys[ix.programAddressIndex] === MEMO_PROGRAM_ID)
      .map((ix) => Buffer.from(ix.data!).toString('utf8'));
    expect(memo).toEqual([identityMemo(identity(), answer.reference as Address)]);
    expect(memo[0]).toMatch(
      new RegExp(`^solana-action:${identity().address}:${answer.reference}:[1-9A-HJ-NP-Za-km-z]{80,90}$`),
    );
    // The signature checked by another ed25519 implementation than the service's (Node's crypto).
    const signed = bs58.decode(memo[0]!.split(':')[3]!);
    expect(nacl.sign.detached.verify(bs58.decode(answer.reference), signed, bs58.decode(identity().address))).toBe(
      true,
    );

    const { signature } = await landBuilt(rpc, answer.transaction, payer);
    await find();
    expect(await receipt(answer.reference)).toMatchObject({ status: 'finalized', signature, attributed: true });
  });

  it('a copied reference paid without the memo is paid but not attributed', async () => {
    const { tag, wallet } = await payee();
    const reference = await issue(tag, '0.01');
    expect(await receipt(reference)).not.toHaveProperty('attributed');
    await payOwnWay(await funded(), wallet, 10_000_000, reference);
    await find();
    expect(await receipt(reference)).toMatchObject({ status: 'finalized', attributed: false });
  });

  it('a memo with a forged signature, or signed by another identity, is not attributed', async () => {
    const { tag, wallet } = await payee();
    const forgerKeys = newKeypair();
    const forger = { address: forgerKeys.publicKey as Address, secretKey: forgerKeys.secretKey };
    const cases = [
      // our identity named, the signature another key's
      (reference: string) =>
        `solana-action:${identity().address}:${reference}:${bs58.encode(nacl.sign.detached(bs58.decode(reference), forger.secretKey))}`,
      // a valid memo of another identity
      (reference: string) => identityMemo(forger, reference as Address),
      // our valid memo for another reference, copied
      () => identityMemo(identity(), newKeypair().publicKey as Address),
    ];
    for (const memoFor of cases) {
      const reference = await issue(tag, '0.01');
      await payOwnWay(await funded(), wallet, 10_000_000, reference, memoFor(reference));
      await find();
      expect(await receipt(reference)).toMatchObject({ status: 'finalized', attributed: false });
    }
  });
});
