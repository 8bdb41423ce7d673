import type { Address } from '@solana/kit';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { getChain } from '@/lib/chain/rpc';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { findPayments } from '@/lib/features/payments/find-payments';
import { issueReference, newReferenceKey } from '@/lib/features/payments/issue-reference';
import { ownDatabase } from '../support/database';
import { newSigner, rpcAt } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { registeredPayee } from '../support/registered-payee';
import { heldInProcessApp } from '../support/in-process';
import { findingAt, fundedPayer, payWithReference } from './paying';

/*
 * The profile's pay link (GET /pay/{tag}, e2e/till.spec.ts follows it in a browser): a reference
 * issued without an amount, since the payer chooses it. Any positive payment to the payout
 * wallet settles it and the receipt records what was paid; nothing paid to the wallet settles it.
 */

const rpc = rpcAt(inject('rpcUrl'));

describe('a reference issued without an amount', () => {
  const database = ownDatabase();
  const app = heldInProcessApp({}, { database });

  async function openReference() {
    const registered = await registeredPayee(database.db, rpc, {
      wallet: (await newSigner()).signer,
      row: { tag: randomTag('open_') },
    });
    const { tag } = registered;
    const wallet = registered.wallet.address;
    const { rpc: appRpc, programAddress } = getChain(app().config);
    const { url } = await issueReference(
      {
        db: database.db,
        rpc: appRpc,
        programAddress,
        cluster: 'localnet',
        now: new Date(),
        ttlSeconds: 1800,
        newReference: newReferenceKey,
      },
      { tag, amount: null, asset: 'preferred' },
    );
    const reference = new URL(url).searchParams.get('reference')!;
    return { tag, wallet, url, reference };
  }

  const pay = async (to: Address, lamports: number, reference: string) =>
    payWithReference(rpc, await fundedPayer(rpc), { to, lamports, reference });

  const receipt = async (reference: string) => (await app().fetch(`/v1/payments/${reference}`)).json();
  const find = () =>
    findPayments({
      db: database.db,
      cluster: findingAt(inject('rpcUrl')),
      now: new Date(),
      identity: serviceIdentity(app().config.actionIdentitySecret).address,
    });

  it('is a Solana Pay link with a reference and no amount, and its receipt is pending with amount null', async () => {
    const { tag, wallet, url, reference } = await openReference();
    expect(url).toBe(`solana:${wallet}?reference=${reference}&label=%40${tag}`);
    expect(await receipt(reference)).toMatchObject({ status: 'pending', amount: null, asset: 'SOL' });
  });

  it('any amount paid to the payout wallet settles it, and the receipt records what was paid', async () => {
    const { wallet, reference } = await openReference();
    await pay(wallet, 123_000_000, reference);
    await find();
    expect(await receipt(reference)).toMatchObject({ status: 'finalized', amount: '0.123', attributed: false });
  });

  it('a payment to another wallet with the reference settles nothing: the receipt stays pending', async () => {
    const { reference } = await openReference();
    await pay(newKeypair().publicKey as Address, 10_000_000, reference);
    await find();
    expect(await receipt(reference)).toMatchObject({ status: 'pending', amount: null });
  });
});
