/**
 * One real failure of the program for each error the payout and rest rules added, each in
 * a fresh LiteSVM where alice holds the tag `alice`, for the tests that check what clients
 * read from them (Anchor's log parser and IDL errors, lib/registry's matcher).
 */
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  registerTagInstruction,
  releaseTagInstruction,
  setWalletInstruction,
} from '@/packages/tag-registry/src/web3js';
import { type RegistryErrorName } from './idl';
import { expectSuccess, PROGRAM_ID, send, type SendResult } from '@/program/litesvm-harness';
import { aliceHoldsTag, plantAccount, rawInstruction, withAccount } from './lifecycle-support';

const programId = PROGRAM_ID;
const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/** alice's tag, released (resting). */
function released() {
  const world = aliceHoldsTag();
  const { svm, alice, tagRecord } = world;
  expectSuccess(
    send(
      svm,
      [releaseTagInstruction({ programId, tagRecord, owner: alice.publicKey, receiver: alice.publicKey })],
      alice.publicKey,
      [alice],
    ),
  );
  return world;
}

export const PAYOUT_AND_REST_REFUSALS: Array<[RegistryErrorName, () => SendResult]> = [
  [
    'WalletNotSigner',
    () => {
      const { svm, alice } = aliceHoldsTag();
      const ix = registerTagInstruction({
        programId,
        tag: 'carol',
        owner: alice.publicKey,
        wallet: Keypair.generate().publicKey,
        feePayer: alice.publicKey,
      });
      return send(svm, [withAccount(ix, 4, { isSigner: false })], alice.publicKey, [alice]);
    },
  ],
  [
    'WalletAccountMismatch',
    () => {
      const { svm, alice, bob, tagRecord } = aliceHoldsTag();
      const ix = setWalletInstruction({
        programId,
        tagRecord,
        owner: alice.publicKey,
        wallet: Keypair.generate().publicKey,
      });
      return send(svm, [withAccount(ix, 2, { pubkey: bob.publicKey })], alice.publicKey, [alice, bob]);
    },
  ],
  [
    'WalletNotSystemOwned',
    () => {
      const { svm, alice, tagRecord } = aliceHoldsTag();
      const wallet = Keypair.generate(); // signs for an account the token program owns
      plantAccount(svm, wallet.publicKey, new Uint8Array(165), TOKEN_PROGRAM_ID);
      return send(
        svm,
        [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: wallet.publicKey })],
        alice.publicKey,
        [alice, wallet],
      );
    },
  ],
  [
    'WalletAccountMissing',
    () => {
      const { svm, alice, tagRecord } = aliceHoldsTag();
      const ix = setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: alice.publicKey });
      return send(svm, [rawInstruction(ix.keys.slice(0, 2), ix.data)], alice.publicKey, [alice]);
    },
  ],
  [
    'TagResting',
    () => {
      const { svm, bob } = released();
      return send(
        svm,
        [
          registerTagInstruction({
            programId,
            tag: 'alice',
            owner: bob.publicKey,
            wallet: bob.publicKey,
            feePayer: bob.publicKey,
          }),
        ],
        bob.publicKey,
        [bob],
      );
    },
  ],
  [
    'TagReleased',
    () => {
      const { svm, alice, tagRecord } = released();
      return send(
        svm,
        [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: alice.publicKey })],
        alice.publicKey,
        [alice],
      );
    },
  ],
];
