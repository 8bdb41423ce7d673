// The program's side of lib/core/tag-vectors.json: the raw bytes of every vector go on
// chain as they are (no trimming, no lower-casing). Service side: tests/identity/tag-rules.test.ts.
import type { Address } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import vectors from '@/lib/core/tag-vectors.json';
import { SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { findTagRecordAddress } from '@/program/pda';
import { registryErrorCode, type RegistryErrorName } from './idl';
import {
  accountData,
  customErrorCode,
  fundedKeypair,
  generateSigner,
  PROGRAM_ID,
  send,
  startSvm,
  type Signer,
} from '@/program/litesvm-harness';
import {
  accountMeta,
  encodeRegisterTagData,
  expectRefusal,
  rawInstruction,
  recordAt,
  registerTag,
} from './lifecycle-support';

let svm: LiteSVM;
let owner: Signer;
beforeEach(() => {
  svm = startSvm();
  owner = fundedKeypair(svm);
});

/** The PDA when the tag fits one seed; any address otherwise (the tag rule fails first). */
function recordAddressFor(tag: string): Address {
  try {
    return findTagRecordAddress(tag, PROGRAM_ID)[0];
  } catch {
    return generateSigner().address;
  }
}

function registerRaw(tag: string) {
  const keys = [
    accountMeta(recordAddressFor(tag), false, true),
    accountMeta(owner.address, true, false),
    accountMeta(owner.address, true, true),
    accountMeta(SYSTEM_PROGRAM_ADDRESS, false, false),
    accountMeta(owner.address, true, false),
  ];
  const ix = rawInstruction(keys, encodeRegisterTagData(tag, owner.address));
  return send(svm, [ix], owner.address, [owner]);
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
