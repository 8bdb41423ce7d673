/**
 * One real failure of the program for each error the payout and rest rules added, each in
 * a fresh LiteSVM where alice holds the tag `alice`, for the tests that check what clients
 * read from them (Anchor's log parser and IDL errors, packages/tag-registry's matcher).
 */
import { address } from '@solana/kit';
import { type RegistryErrorName } from './idl';
import { expectSuccess, generateSigner, send, type SendResult } from '@/program/litesvm-harness';
import {
  aliceHoldsTag,
  lifecycleInstruction,
  plantAccount,
  rawInstruction,
  sendCall,
  withAccount,
} from './lifecycle-support';

const TOKEN_PROGRAM_ID = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/** alice's tag, released (resting). */
function released() {
  const world = aliceHoldsTag();
  const { svm, alice } = world;
  expectSuccess(sendCall(svm, { kind: 'release', tag: 'alice', owner: alice, receiver: alice.address }));
  return world;
}

export const PAYOUT_AND_REST_REFUSALS: Array<[RegistryErrorName, () => SendResult]> = [
  [
    'WalletNotSigner',
    () => {
      const { svm, alice } = aliceHoldsTag();
      const ix = lifecycleInstruction({ kind: 'register', tag: 'carol', owner: alice, wallet: generateSigner() });
      return send(svm, [withAccount(ix, 4, { isSigner: false })], alice.address, [alice]);
    },
  ],
  [
    'WalletAccountMismatch',
    () => {
      const { svm, alice, bob } = aliceHoldsTag();
      const ix = lifecycleInstruction({ kind: 'set_wallet', tag: 'alice', owner: alice, wallet: generateSigner() });
      return send(svm, [withAccount(ix, 2, { address: bob.address })], alice.address, [alice, bob]);
    },
  ],
  [
    'WalletNotSystemOwned',
    () => {
      const { svm, alice } = aliceHoldsTag();
      const wallet = generateSigner(); // signs for an account the token program owns
      plantAccount(svm, wallet.address, new Uint8Array(165), TOKEN_PROGRAM_ID);
      return sendCall(svm, { kind: 'set_wallet', tag: 'alice', owner: alice, wallet });
    },
  ],
  [
    'WalletAccountMissing',
    () => {
      const { svm, alice } = aliceHoldsTag();
      const ix = lifecycleInstruction({ kind: 'set_wallet', tag: 'alice', owner: alice, wallet: alice });
      return send(svm, [rawInstruction(ix.accounts.slice(0, 2), ix.data)], alice.address, [alice]);
    },
  ],
  [
    'TagResting',
    () => {
      const { svm, bob } = released();
      return sendCall(svm, { kind: 'register', tag: 'alice', owner: bob, wallet: bob });
    },
  ],
  [
    'TagReleased',
    () => {
      const { svm, alice } = released();
      return sendCall(svm, { kind: 'set_wallet', tag: 'alice', owner: alice, wallet: alice });
    },
  ],
];
