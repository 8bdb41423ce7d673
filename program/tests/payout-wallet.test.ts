// The payout wallet consents (DESIGN.md "Payout rules"): register_tag's account 4 and
// set_wallet's account 2 are the wallet argument, sign, and are owned by the System Program.
// Real token accounts and mints (SPL Token in LiteSVM) and the program account itself are
// refused even though their keys sign. LiteSVM with every feature on, the committed .so.
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  getInitializeAccount3Instruction,
  getInitializeMint2Instruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { createNoopSigner, type Address, type Instruction } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { registerTagInstruction, setWalletInstruction } from '@/devstack/lifecycle-instructions';
import { type RegistryErrorName } from './idl';
import { LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { readKeypairFile } from '@/program/deploy/keys';
import {
  accountData,
  expectSuccess,
  fundedKeypair,
  generateSigner,
  PROGRAM_ID,
  send,
  type Signer,
} from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';
import {
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  plantAccount,
  rawInstruction,
  recordAt,
  snapshot,
  withAccount,
  type FullInstruction,
} from './lifecycle-support';

const programId = PROGRAM_ID;
const TOKEN_PROGRAM_ID = TOKEN_PROGRAM_ADDRESS;
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;

const world = freshForEachTest(() => {
  const start = aliceHoldsTag();
  return { ...start, sponsor: fundedKeypair(start.svm), payee: generateSigner() };
});

/** Creates an account at `key`'s own address owned by the token program, so `key` can sign for it. */
function tokenProgramAccount(svm: LiteSVM, payer: Signer, key: Signer, space: number, init: Instruction) {
  const create = getCreateAccountInstruction({
    payer: createNoopSigner(payer.address),
    newAccount: createNoopSigner(key.address),
    lamports: svm.minimumBalanceForRentExemption(BigInt(space)),
    space,
    programAddress: TOKEN_PROGRAM_ID,
  });
  expectSuccess(send(svm, [create, init], payer.address, [payer, key]));
  expect(accountData(svm, key.address)?.owner).toEqual(TOKEN_PROGRAM_ID);
}

/** A real SPL mint whose address is a keypair's (InitializeMint2, no freeze authority). */
function mintAtKeypair(svm: LiteSVM, payer: Signer): Signer {
  const mint = generateSigner();
  const init = getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: payer.address });
  tokenProgramAccount(svm, payer, mint, MINT_SIZE, init);
  return mint;
}

/** A real SPL token account at a keypair's address (InitializeAccount3), the payer owning its tokens. */
function tokenAccountAtKeypair(svm: LiteSVM, payer: Signer): Signer {
  const mint = mintAtKeypair(svm, payer);
  const account = generateSigner();
  const init = getInitializeAccount3Instruction({ account: account.address, mint: mint.address, owner: payer.address });
  tokenProgramAccount(svm, payer, account, TOKEN_ACCOUNT_SIZE, init);
  return account;
}

/** Keys that sign for accounts no System Program owns: what a pasted address can be. */
const UNSPENDABLE: Array<[string, () => Signer]> = [
  ['an SPL token account', () => tokenAccountAtKeypair(world.svm, world.sponsor)],
  ['an SPL mint', () => mintAtKeypair(world.svm, world.sponsor)],
  ['a program (the registry itself, whose keypair is public on localnet)', () => programKeypair()],
  [
    'an account another program owns',
    () => {
      const key = generateSigner();
      plantAccount(world.svm, key.address, new Uint8Array(8), generateSigner().address);
      return key;
    },
  ],
];

/** The registry program's own keypair (public, localnet only): loader-v3 owns its account. */
const programKeypair = (): Signer => readKeypairFile(LOCALNET_PROGRAM_KEYPAIR);

function registerIx(owner: Address, wallet: Address, feePayer = world.sponsor.address, tag = 'carol') {
  return registerTagInstruction({ programAddress: programId, tag, owner, wallet, feePayer }) as FullInstruction;
}

function setWalletIx(wallet: Address, owner = world.alice.address) {
  return setWalletInstruction({
    programAddress: programId,
    tagRecord: world.tagRecord,
    owner,
    wallet,
  }) as FullInstruction;
}

/** Sends with the sponsor paying, and checks the refusal and that neither record changed. */
function expectRefused(ix: Instruction, signers: Signer[], error: RegistryErrorName) {
  const carol = findTagRecordAddress('carol', programId)[0];
  const before = [snapshot(world.svm, world.tagRecord), snapshot(world.svm, carol)];
  expectRefusal(send(world.svm, [ix], world.sponsor.address, [world.sponsor, ...signers]), error);
  expect([snapshot(world.svm, world.tagRecord), snapshot(world.svm, carol)]).toEqual(before);
}

describe('register_tag: the payout wallet', () => {
  it('a separate wallet that signs (an address with no account yet) is stored', () => {
    expect(accountData(world.svm, world.payee.address)).toBeNull();
    expectSuccess(
      send(world.svm, [registerIx(world.alice.address, world.payee.address)], world.sponsor.address, [
        world.sponsor,
        world.alice,
        world.payee,
      ]),
    );
    expect(recordAt(world.svm, findTagRecordAddress('carol', programId)[0])).toMatchObject({
      owner: world.alice.address,
      wallet: world.payee.address,
    });
  });

  it.each([
    ['the owner (5 accounts, the 5th a duplicate of the owner)', () => world.alice, () => world.sponsor],
    ["the owner who also pays (the owner's key in three positions)", () => world.alice, () => world.alice],
    ['the sponsor', () => world.sponsor, () => world.sponsor],
  ])('the wallet may be %s, which already signs', (_case, wallet, payer) => {
    const ix = registerIx(world.alice.address, wallet().address, payer().address);
    expect(ix.accounts).toHaveLength(5);
    expectSuccess(send(world.svm, [ix], payer().address, [...new Set([payer(), world.alice])]));
    expect(recordAt(world.svm, findTagRecordAddress('carol', programId)[0]).wallet).toEqual(wallet().address);
  });

  it('refuses a wallet that does not sign with WalletNotSigner', () => {
    const ix = withAccount(registerIx(world.alice.address, world.payee.address), 4, { isSigner: false });
    expectRefused(ix, [world.alice], 'WalletNotSigner');
  });

  it('refuses a wallet account other than the wallet argument with WalletAccountMismatch, even one that signs', () => {
    const ix = withAccount(registerIx(world.alice.address, world.payee.address), 4, {
      address: world.bob.address,
    });
    expectRefused(ix, [world.alice, world.bob], 'WalletAccountMismatch');
  });

  it.each(UNSPENDABLE)('refuses %s as wallet, its key signing, with WalletNotSystemOwned', (_case, make) => {
    const wallet = make();
    expectRefused(registerIx(world.alice.address, wallet.address), [world.alice, wallet], 'WalletNotSystemOwned');
  });

  it('refuses the four accounts of the build before (no wallet account) with WalletAccountMissing', () => {
    const ix = registerIx(world.alice.address, world.alice.address);
    expectRefused(rawInstruction(ix.accounts.slice(0, 4), ix.data), [world.alice], 'WalletAccountMissing');
  });
});

describe('set_wallet: the payout wallet', () => {
  it('the owner as wallet: three accounts, the third a duplicate of the owner', () => {
    const wallet = generateSigner();
    expectSuccess(send(world.svm, [setWalletIx(wallet.address)], world.alice.address, [world.alice, wallet]));
    const ix = setWalletIx(world.alice.address);
    expect(ix.accounts).toHaveLength(3);
    expectSuccess(send(world.svm, [ix], world.alice.address, [world.alice]));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(world.alice.address);
  });

  it('refuses a wallet that does not sign with WalletNotSigner', () => {
    expectRefused(
      withAccount(setWalletIx(world.payee.address), 2, { isSigner: false }),
      [world.alice],
      'WalletNotSigner',
    );
  });

  it('refuses a wallet account other than the wallet argument with WalletAccountMismatch', () => {
    expectRefused(
      withAccount(setWalletIx(world.payee.address), 2, { address: world.bob.address }),
      [world.alice, world.bob],
      'WalletAccountMismatch',
    );
  });

  it.each(UNSPENDABLE)('refuses %s as wallet, its key signing, with WalletNotSystemOwned', (_case, make) => {
    const wallet = make();
    expectRefused(setWalletIx(wallet.address), [world.alice, wallet], 'WalletNotSystemOwned');
  });

  it('refuses the two-account form of the build before with WalletAccountMissing, and the record keeps its wallet', () => {
    const ix = setWalletIx(world.payee.address);
    expectRefused(rawInstruction(ix.accounts.slice(0, 2), ix.data), [world.alice], 'WalletAccountMissing');
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(world.alice.address);
  });

  it("checks the owner before the wallet account: a stranger's two-account call is NotTagOwner", () => {
    const ix = setWalletIx(world.payee.address, world.bob.address);
    expectRefused(rawInstruction(ix.accounts.slice(0, 2), ix.data), [world.bob], 'NotTagOwner');
  });

  it('refuses a single account with NotEnoughAccounts', () => {
    const ix = setWalletIx(world.payee.address);
    expectRefused(rawInstruction(ix.accounts.slice(0, 1), ix.data), [], 'NotEnoughAccounts');
  });
});

it('the localnet program keypair is the program id (the UNSPENDABLE case above relies on it)', () => {
  expect(programKeypair().address).toEqual(programId);
  const account = world.svm.getAccount(programId);
  expect(account.exists && account.executable).toBe(true);
});
