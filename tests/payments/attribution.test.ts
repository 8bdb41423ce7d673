import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { MEMO_PROGRAM_ID, identityMemo, serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { findPayments } from '@/lib/features/payments/find-payments';
import { ownDatabase } from '../support/database';
import { registeredPayee } from '../support/registered-payee';
import { heldInProcessApp } from '../support/in-process';
import { fundedPayer, payWithReference } from './paying';

/*
 * Attribution (docs/integrators.md, "Telling our payments from copies"): a transaction the pay
 * Action built carries the service identity's signed memo and its receipt says `attributed:
 * true`; the same reference paid by a wallet that copied it, without the memo or with a memo
 * whose signature is not the identity's, pays just the same and says `attributed: false`.
 * Everything on the shared localnet, signed by real keys.
 */

const connection = new Connection(inject('rpcUrl'), 'confirmed');

describe('the Action Identity memo', () => {
  const database = ownDatabase();
  const app = heldInProcessApp({}, { database });
  const identity = () => serviceIdentity(app().config.actionIdentitySecret);

  async function payee() {
    const { tag, wallet } = await registeredPayee(database.db, connection, {
      wallet: Keypair.generate(),
      row: { tag: randomTag('attr_') },
    });
    return { tag, wallet: wallet.publicKey };
  }

  const funded = () => fundedPayer(connection);

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

  const find = () => findPayments({ db: database.db, connection, now: new Date(), identity: identity().publicKey });

  /** A wallet's own transfer carrying the reference, and `memo` when given. */
  const payOwnWay = (payer: Keypair, to: PublicKey, lamports: number, reference: string, memo?: string) =>
    payWithReference(connection, payer, { to, lamports, reference, memo });

  it('a payment through the pay Action carries the memo and is attributed', async () => {
    const { tag, wallet } = await payee();
    const payer = await funded();
    const res = await app().fetch(`/api/actions/pay/${tag}?amount=0.02`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: payer.publicKey.toBase58() }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { transaction: string; reference: string };
    expect(await receipt(answer.reference)).toMatchObject({ status: 'pending', recipient: wallet.toBase58() });
    const tx = VersionedTransaction.deserialize(Buffer.from(answer.transaction, 'base64'));
    // The memo as the Actions spec writes it, and the identity a read-only key of the transaction.
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys).toContain(identity().publicKey.toBase58());
    const memo = tx.message.compiledInstructions
      .filter((ix) => keys[ix.programIdIndex] === MEMO_PROGRAM_ID.toBase58())
      .map((ix) => Buffer.from(ix.data).toString('utf8'));
    expect(memo).toEqual([identityMemo(identity(), new PublicKey(answer.reference))]);
    expect(memo[0]).toMatch(
      new RegExp(`^solana-action:${identity().publicKey.toBase58()}:${answer.reference}:[1-9A-HJ-NP-Za-km-z]{80,90}$`),
    );
    // The signature checked by another ed25519 implementation than the service's (Node's crypto).
    const signed = bs58.decode(memo[0]!.split(':')[3]!);
    expect(nacl.sign.detached.verify(bs58.decode(answer.reference), signed, identity().publicKey.toBytes())).toBe(true);

    tx.sign([payer]);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const latest = await connection.getLatestBlockhash();
    const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
    expect(value.err).toBeNull();
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
    const forger = Keypair.generate();
    const cases = [
      // our identity named, the signature another key's
      (reference: string) =>
        `solana-action:${identity().publicKey.toBase58()}:${reference}:${bs58.encode(nacl.sign.detached(new PublicKey(reference).toBytes(), forger.secretKey))}`,
      // a valid memo of another identity
      (reference: string) => identityMemo(forger, new PublicKey(reference)),
      // our valid memo for another reference, copied
      () => identityMemo(identity(), Keypair.generate().publicKey),
    ];
    for (const memoFor of cases) {
      const reference = await issue(tag, '0.01');
      await payOwnWay(await funded(), wallet, 10_000_000, reference, memoFor(reference));
      await find();
      expect(await receipt(reference)).toMatchObject({ status: 'finalized', attributed: false });
    }
  });
});
