// What packages/tag-registry adds to the generated client: the program's strictness when
// reading data back, the TagRecord as the app reads it, the synchronous PDA, and the web3.js
// v1 builders, each checked against the generated code and the IDL.
import { address, getAddressDecoder } from '@solana/kit';
import { Keypair, PublicKey } from '@solana/web3.js';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import idl from '@/program/idl/tag_registry.json';
import {
  findTagRecordPda,
  getAcceptTransferInstructionDataEncoder,
  getCancelTransferInstructionDataEncoder,
  getOfferTransferInstructionDataEncoder,
  getReleaseTagInstructionDataEncoder,
  getSetWalletInstructionDataEncoder,
  LOCALNET_PROGRAM_ID,
  parseRegistryInstructionData,
  REGISTER_TAG_DISCRIMINATOR,
  TAG_RECORD_OFFSETS,
  TAG_RECORD_SIZE,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';
import {
  acceptTransferInstruction,
  cancelTransferInstruction,
  decodeTagRecord,
  encodeRegisterTagData,
  encodeTagRecord,
  findTagRecordAddress,
  offerTransferInstruction,
  parseWeb3RegistryInstruction,
  registerTagInstruction,
  releaseTagInstruction,
  setWalletInstruction,
} from '@/packages/tag-registry/src/web3js';

const programId = new PublicKey(LOCALNET_PROGRAM_ID);
const key = () => Keypair.generate().publicKey;
const kit = (k: PublicKey) => address(k.toBase58());

describe('web3.js builders', () => {
  const owner = key();
  const other = key();
  const [tagRecord] = findTagRecordAddress('alice', programId);
  const BUILT = {
    register_tag: () => registerTagInstruction({ programId, tag: 'alice', owner, wallet: other, feePayer: other }),
    set_wallet: () => setWalletInstruction({ programId, tagRecord, owner, wallet: other }),
    offer_transfer: () => offerTransferInstruction({ programId, tagRecord, owner, newOwner: other }),
    cancel_transfer: () => cancelTransferInstruction({ programId, tagRecord, owner }),
    accept_transfer: () => acceptTransferInstruction({ programId, tagRecord, newOwner: owner }),
    release_tag: () => releaseTagInstruction({ programId, tagRecord, owner, receiver: other }),
  };

  it.each(Object.entries(BUILT))(
    "%s: the IDL's accounts and flags, its discriminator, the record first",
    (name, build) => {
      const ix = idl.instructions.find((i) => i.name === name)!;
      const built = build();
      expect(built.programId.equals(programId)).toBe(true);
      expect(built.keys.map((k) => ({ signer: k.isSigner, writable: k.isWritable }))).toEqual(
        ix.accounts.map((a) => ({
          signer: 'signer' in a && a.signer === true,
          writable: 'writable' in a && a.writable === true,
        })),
      );
      expect(built.keys[0]!.pubkey.equals(tagRecord)).toBe(true);
      expect([...built.data.subarray(0, 8)]).toEqual(ix.discriminator);
      expect(
        parseWeb3RegistryInstruction(
          programId,
          built.data,
          built.keys.map((k) => k.pubkey),
        ),
      ).not.toBeNull();
    },
  );

  it('findTagRecordAddress is the generated findTagRecordPda, synchronously', async () => {
    for (const tag of ['alice', 'bob_smith', 'x'.repeat(32)]) {
      const [pda, bump] = findTagRecordAddress(tag, programId);
      expect(await findTagRecordPda({ tag }, { programAddress: kit(programId) })).toEqual([pda.toBase58(), bump]);
    }
  });
});

describe("instruction data, with the program's strictness", () => {
  const wallet = key();
  const ALL = [
    ['register_tag', () => encodeRegisterTagData('bob_smith', wallet)],
    ['set_wallet', () => getSetWalletInstructionDataEncoder().encode({ wallet: kit(wallet) })],
    ['offer_transfer', () => getOfferTransferInstructionDataEncoder().encode({ newOwner: kit(wallet) })],
    ['cancel_transfer', () => getCancelTransferInstructionDataEncoder().encode({})],
    ['accept_transfer', () => getAcceptTransferInstructionDataEncoder().encode({})],
    ['release_tag', () => getReleaseTagInstructionDataEncoder().encode({})],
  ] as const;

  it.each(ALL)('%s parses, and not with a trailing byte or a byte short', (_name, make) => {
    const data = Uint8Array.from(make());
    expect(parseRegistryInstructionData(data)).not.toBeNull();
    expect(parseRegistryInstructionData(Uint8Array.from([...data, 0]))).toBeNull();
    expect(parseRegistryInstructionData(data.subarray(0, data.length - 1))).toBeNull();
  });

  it("reads register_tag's arguments back", () => {
    const parsed = parseRegistryInstructionData(encodeRegisterTagData('bob_smith', wallet));
    expect(parsed).toEqual({
      instructionType: TagRegistryInstruction.RegisterTag,
      data: expect.objectContaining({ tag: 'bob_smith', wallet: wallet.toBase58() }),
    });
  });

  it.each([
    ['empty', () => new Uint8Array(0)],
    [
      'wrong discriminator',
      () => {
        const d = encodeRegisterTagData('alice', wallet);
        d[7]! ^= 0x80;
        return d;
      },
    ],
    [
      'length past the end',
      () => {
        const d = encodeRegisterTagData('alice', wallet);
        d.writeUInt32LE(0xffffffff, 8);
        return d;
      },
    ],
    [
      'invalid UTF-8',
      () => {
        const d = encodeRegisterTagData('abc', wallet);
        d[12] = 0xff;
        return d;
      },
    ],
  ])('refuses register_tag data: %s', (_case, make) => {
    expect(parseRegistryInstructionData(make())).toBeNull();
  });

  it('names the accounts in ABI order, and refuses too few', () => {
    const keys = [key(), key(), key()];
    const data = getReleaseTagInstructionDataEncoder().encode({});
    expect(parseWeb3RegistryInstruction(programId, data, keys)?.accounts).toEqual({
      tagRecord: expect.objectContaining({ address: keys[0]!.toBase58() }),
      owner: expect.objectContaining({ address: keys[1]!.toBase58() }),
      receiver: expect.objectContaining({ address: keys[2]!.toBase58() }),
    });
    expect(parseWeb3RegistryInstruction(programId, data, keys.slice(0, 2))).toBeNull();
  });

  it('never throws on random bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(i % 90);
      if (i % 2 === 0 && bytes.length >= 8)
        bytes.set(i % 4 === 0 ? REGISTER_TAG_DISCRIMINATOR : idl.instructions[i % 6]!.discriminator);
      expect(() => parseRegistryInstructionData(bytes)).not.toThrow();
    }
  });
});

describe('TagRecord', () => {
  const owner = key();
  const wallet = key();
  const pendingOwner = key();
  const record = () => encodeTagRecord({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });

  it('round-trips every field, at TAG_RECORD_OFFSETS', () => {
    const data = record();
    expect(data.length).toBe(TAG_RECORD_SIZE);
    expect(decodeTagRecord(data)).toEqual({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });
    const at = TAG_RECORD_OFFSETS;
    expect(getAddressDecoder().decode(data.subarray(at.owner, at.owner + 32))).toBe(owner.toBase58());
    expect(getAddressDecoder().decode(data.subarray(at.wallet, at.wallet + 32))).toBe(wallet.toBase58());
    expect(getAddressDecoder().decode(data.subarray(at.pendingOwner, at.pendingOwner + 32))).toBe(
      pendingOwner.toBase58(),
    );
    expect(data[at.bump]).toBe(254);
    expect(new DataView(data.buffer).getBigInt64(at.registeredAt, true)).toBe(-5n);
    expect(new DataView(data.buffer).getUint32(at.tagLength, true)).toBe(5);
    expect(Buffer.from(data.subarray(at.tag, at.tag + 5)).toString()).toBe('alice');
    expect(data.subarray(at.tag + 5).every((b) => b === 0)).toBe(true);
  });

  it('reads an all-zero pending owner as null, and writes null as zero', () => {
    const data = encodeTagRecord({ owner, wallet, pendingOwner: null, bump: 1, registeredAt: 0n, tag: 'abc' });
    expect(data.subarray(72, 104).every((b) => b === 0)).toBe(true);
    expect(decodeTagRecord(data)?.pendingOwner).toBeNull();
  });

  it.each([
    ['wrong size', () => record().subarray(0, TAG_RECORD_SIZE - 1)],
    ['the old 117-byte layout', () => record().subarray(0, 117)],
    [
      'wrong discriminator',
      () => {
        const d = record();
        d[0]! ^= 1;
        return d;
      },
    ],
    [
      'tag longer than a seed',
      () => {
        const d = record();
        new DataView(d.buffer).setUint32(113, 33, true);
        return d;
      },
    ],
    [
      'invalid UTF-8',
      () => {
        const d = record();
        d[117] = 0xff;
        return d;
      },
    ],
  ])('decodes %s to null', (_case, make) => {
    expect(decodeTagRecord(make())).toBeNull();
  });

  it('refuses to write a tag longer than a seed or a bump outside a u8', () => {
    expect(() =>
      encodeTagRecord({ owner, wallet, pendingOwner: null, bump: 1, registeredAt: 0n, tag: 'x'.repeat(33) }),
    ).toThrow(RangeError);
    expect(() =>
      encodeTagRecord({ owner, wallet, pendingOwner: null, bump: 256, registeredAt: 0n, tag: 'abc' }),
    ).toThrow(RangeError);
  });
});
