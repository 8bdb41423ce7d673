// The payout wallet consents (DESIGN.md "Payout rules"): register_tag's account 4 and
// set_wallet's account 2 are the wallet argument, sign, and are owned by the System Program.
// Real token accounts and mints (SPL Token in LiteSVM) and the program account itself are
// refused even though their keys sign. LiteSVM with every feature on, the committed .so.
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { registerTagInstruction, setWalletInstruction, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { type RegistryErrorName } from './idl';
import { LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { readKeypairFile } from '@/program/deploy/keys';
import { accountData, expectSuccess, fundedKeypair, PROGRAM_ID, send, toAddress } from '@/program/litesvm-harness';
import {
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  plantAccount,
  rawInstruction,
  recordAt,
  snapshot,
  withAccount,
} from './lifecycle-support';

const programId = PROGRAM_ID;
const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;
/** SPL Token instruction tags. */
const INITIALIZE_ACCOUNT_3 = 18;
const INITIALIZE_MINT_2 = 20;

const world = freshForEachTest(() => {
  const start = aliceHoldsTag();
  return { ...start, sponsor: fundedKeypair(start.svm), payee: Keypair.generate() };
});

/** Creates an account at `key`'s own address owned by the token program, so `key` can sign for it. */
function tokenProgramAccount(svm: LiteSVM, payer: Keypair, key: Keypair, space: number, init: TransactionInstruction) {
  const lamports = Number(svm.minimumBalanceForRentExemption(BigInt(space)));
  const create = SystemProgram.createAccount({
    fromPubkey: payer.publicKey,
    newAccountPubkey: key.publicKey,
    lamports,
    space,
    programId: TOKEN_PROGRAM_ID,
  });
  expectSuccess(send(svm, [create, init], payer.publicKey, [payer, key]));
  expect(accountData(svm, key.publicKey)?.owner).toEqual(TOKEN_PROGRAM_ID);
}

/** A real SPL mint whose address is a keypair's (InitializeMint2, no freeze authority). */
function mintAtKeypair(svm: LiteSVM, payer: Keypair): Keypair {
  const mint = Keypair.generate();
  const data = Buffer.concat([Buffer.from([INITIALIZE_MINT_2, 6]), payer.publicKey.toBuffer(), Buffer.from([0])]);
  tokenProgramAccount(
    svm,
    payer,
    mint,
    MINT_SIZE,
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
      data,
    }),
  );
  return mint;
}

/** A real SPL token account at a keypair's address (InitializeAccount3), the payer owning its tokens. */
function tokenAccountAtKeypair(svm: LiteSVM, payer: Keypair): Keypair {
  const mint = mintAtKeypair(svm, payer);
  const account = Keypair.generate();
  const keys = [
    { pubkey: account.publicKey, isSigner: false, isWritable: true },
    { pubkey: mint.publicKey, isSigner: false, isWritable: false },
  ];
  tokenProgramAccount(
    svm,
    payer,
    account,
    TOKEN_ACCOUNT_SIZE,
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys,
      data: Buffer.concat([Buffer.from([INITIALIZE_ACCOUNT_3]), payer.publicKey.toBuffer()]),
    }),
  );
  return account;
}

/** Keys that sign for accounts no System Program owns: what a pasted address can be. */
const UNSPENDABLE: Array<[string, () => Keypair]> = [
  ['an SPL token account', () => tokenAccountAtKeypair(world.svm, world.sponsor)],
  ['an SPL mint', () => mintAtKeypair(world.svm, world.sponsor)],
  ['a program (the registry itself, whose keypair is public on localnet)', () => programKeypair()],
  [
    'an account another program owns',
    () => {
      const key = Keypair.generate();
      plantAccount(world.svm, key.publicKey, new Uint8Array(8), Keypair.generate().publicKey);
      return key;
    },
  ],
];

/** The registry program's own keypair (public, localnet only): loader-v3 owns its account. */
const programKeypair = () => Keypair.fromSecretKey(readKeypairFile(LOCALNET_PROGRAM_KEYPAIR).secretKey);

function registerIx(owner: PublicKey, wallet: PublicKey, feePayer = world.sponsor.publicKey, tag = 'carol') {
  return registerTagInstruction({ programId, tag, owner, wallet, feePayer });
}

function setWalletIx(wallet: PublicKey, owner = world.alice.publicKey) {
  return setWalletInstruction({ programId, tagRecord: world.tagRecord, owner, wallet });
}

/** Sends with the sponsor paying, and checks the refusal and that neither record changed. */
function expectRefused(ix: TransactionInstruction, signers: Keypair[], error: RegistryErrorName) {
  const carol = findTagRecordAddress('carol', programId)[0];
  const before = [snapshot(world.svm, world.tagRecord), snapshot(world.svm, carol)];
  expectRefusal(send(world.svm, [ix], world.sponsor.publicKey, [world.sponsor, ...signers]), error);
  expect([snapshot(world.svm, world.tagRecord), snapshot(world.svm, carol)]).toEqual(before);
}

describe('register_tag: the payout wallet', () => {
  it('a separate wallet that signs (an address with no account yet) is stored', () => {
    expect(accountData(world.svm, world.payee.publicKey)).toBeNull();
    expectSuccess(
      send(world.svm, [registerIx(world.alice.publicKey, world.payee.publicKey)], world.sponsor.publicKey, [
        world.sponsor,
        world.alice,
        world.payee,
      ]),
    );
    expect(recordAt(world.svm, findTagRecordAddress('carol', programId)[0])).toMatchObject({
      owner: world.alice.publicKey,
      wallet: world.payee.publicKey,
    });
  });

  it.each([
    ['the owner (5 accounts, the 5th a duplicate of the owner)', () => world.alice, () => world.sponsor],
    ["the owner who also pays (the owner's key in three positions)", () => world.alice, () => world.alice],
    ['the sponsor', () => world.sponsor, () => world.sponsor],
  ])('the wallet may be %s, which already signs', (_case, wallet, payer) => {
    const ix = registerIx(world.alice.publicKey, wallet().publicKey, payer().publicKey);
    expect(ix.keys).toHaveLength(5);
    expectSuccess(send(world.svm, [ix], payer().publicKey, [...new Set([payer(), world.alice])]));
    expect(recordAt(world.svm, findTagRecordAddress('carol', programId)[0]).wallet).toEqual(wallet().publicKey);
  });

  it('refuses a wallet that does not sign with WalletNotSigner', () => {
    const ix = withAccount(registerIx(world.alice.publicKey, world.payee.publicKey), 4, { isSigner: false });
    expectRefused(ix, [world.alice], 'WalletNotSigner');
  });

  it('refuses a wallet account other than the wallet argument with WalletAccountMismatch, even one that signs', () => {
    const ix = withAccount(registerIx(world.alice.publicKey, world.payee.publicKey), 4, {
      pubkey: world.bob.publicKey,
    });
    expectRefused(ix, [world.alice, world.bob], 'WalletAccountMismatch');
  });

  it.each(UNSPENDABLE)('refuses %s as wallet, its key signing, with WalletNotSystemOwned', (_case, make) => {
    const wallet = make();
    expectRefused(registerIx(world.alice.publicKey, wallet.publicKey), [world.alice, wallet], 'WalletNotSystemOwned');
  });

  it('refuses the four accounts of the build before (no wallet account) with WalletAccountMissing', () => {
    const ix = registerIx(world.alice.publicKey, world.alice.publicKey);
    expectRefused(rawInstruction(ix.keys.slice(0, 4), ix.data), [world.alice], 'WalletAccountMissing');
  });
});

describe('set_wallet: the payout wallet', () => {
  it('the owner as wallet: three accounts, the third a duplicate of the owner', () => {
    const wallet = Keypair.generate();
    expectSuccess(send(world.svm, [setWalletIx(wallet.publicKey)], world.alice.publicKey, [world.alice, wallet]));
    const ix = setWalletIx(world.alice.publicKey);
    expect(ix.keys).toHaveLength(3);
    expectSuccess(send(world.svm, [ix], world.alice.publicKey, [world.alice]));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(world.alice.publicKey);
  });

  it('refuses a wallet that does not sign with WalletNotSigner', () => {
    expectRefused(
      withAccount(setWalletIx(world.payee.publicKey), 2, { isSigner: false }),
      [world.alice],
      'WalletNotSigner',
    );
  });

  it('refuses a wallet account other than the wallet argument with WalletAccountMismatch', () => {
    expectRefused(
      withAccount(setWalletIx(world.payee.publicKey), 2, { pubkey: world.bob.publicKey }),
      [world.alice, world.bob],
      'WalletAccountMismatch',
    );
  });

  it.each(UNSPENDABLE)('refuses %s as wallet, its key signing, with WalletNotSystemOwned', (_case, make) => {
    const wallet = make();
    expectRefused(setWalletIx(wallet.publicKey), [world.alice, wallet], 'WalletNotSystemOwned');
  });

  it('refuses the two-account form of the build before with WalletAccountMissing, and the record keeps its wallet', () => {
    const ix = setWalletIx(world.payee.publicKey);
    expectRefused(rawInstruction(ix.keys.slice(0, 2), ix.data), [world.alice], 'WalletAccountMissing');
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(world.alice.publicKey);
  });

  it("checks the owner before the wallet account: a stranger's two-account call is NotTagOwner", () => {
    const ix = setWalletIx(world.payee.publicKey, world.bob.publicKey);
    expectRefused(rawInstruction(ix.keys.slice(0, 2), ix.data), [world.bob], 'NotTagOwner');
  });

  it('refuses a single account with NotEnoughAccounts', () => {
    const ix = setWalletIx(world.payee.publicKey);
    expectRefused(rawInstruction(ix.keys.slice(0, 1), ix.data), [], 'NotEnoughAccounts');
  });
});

it('the localnet program keypair is the program id (the UNSPENDABLE case above relies on it)', () => {
  expect(programKeypair().publicKey).toEqual(programId);
  const account = world.svm.getAccount(toAddress(programId));
  expect(account.exists && account.executable).toBe(true);
});
