// The program's side of lib/core/tag-vectors.json: the raw bytes of every vector go on
// chain as they are (no trimming, no lower-casing). Service side: tests/identity/tag-rules.test.ts.
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import vectors from '@/lib/core/tag-vectors.json';
import { encodeRegisterTagData, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { registryErrorCode, type RegistryErrorName } from './idl';
import { accountData, customErrorCode, fundedKeypair, PROGRAM_ID, send, startSvm } from '@/program/litesvm-harness';
import { expectRefusal, recordAt, registerTag } from './lifecycle-support';

let svm: LiteSVM;
let owner: Keypair;
beforeEach(() => {
  svm = startSvm();
  owner = fundedKeypair(svm);
});

/** The PDA when the tag fits one seed; any address otherwise (the tag rule fails first). */
function recordAddressFor(tag: string): PublicKey {
  try {
    return findTagRecordAddress(tag, PROGRAM_ID)[0];
  } catch {
    return Keypair.generate().publicKey;
  }
}

function registerRaw(tag: string) {
  const ix = new TransactionInstruction({
    programId: PROGRAM_ID,
    keys: [
      { pubkey: recordAddressFor(tag), isSigner: false, isWritable: true },
      { pubkey: owner.publicKey, isSigner: true, isWritable: false },
      { pubkey: owner.publicKey, isSigner: true, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: owner.publicKey, isSigner: true, isWritable: false },
    ],
    data: encodeRegisterTagData(tag, owner.publicKey),
  });
  return send(svm, [ix], owner.publicKey, [owner]);
}

describe('tag vectors: program side', () => {
  it.each(vectors.valid)('registers valid %j', (tag) => {
    expect(recordAt(svm, registerTag(svm, tag, owner)).tag).toBe(tag);
  });

  it.each(vectors.invalid)('refuses invalid $reason with $error', ({ tag, error }) => {
    const result = registerRaw(tag);
    expectRefusal(result, error as RegistryErrorName);
  });

  it.each(vectors.nonCanonical)('refuses non-canonical raw input $input with $error', ({ input, tag, error }) => {
    const result = registerRaw(input);
    expect(customErrorCode(result)).toBe(registryErrorCode(error as RegistryErrorName));
    // Its canonical form is a different, valid tag: still unregistered.
    expect(accountData(svm, findTagRecordAddress(tag, PROGRAM_ID)[0])).toBeNull();
  });
});
