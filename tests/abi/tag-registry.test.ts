// What packages/tag-registry adds to the generated client: the program's strictness when
// reading data back, the TagRecord as the app reads it; the generated builders against the
// IDL, and program/pda.ts's synchronous PDA against the generated one.
import {
  createNoopSigner,
  getAddressDecoder,
  isSignerRole,
  isWritableRole,
  type Address,
  type Instruction,
  type InstructionWithAccounts,
  type InstructionWithData,
  type AccountMeta,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import idl from '@/program/idl/tag_registry.json';
import {
  findTagRecordPda,
  getAcceptTransferInstruction,
  getAcceptTransferInstructionDataEncoder,
  getCancelTransferInstruction,
  getCancelTransferInstructionDataEncoder,
  getOfferTransferInstruction,
  getOfferTransferInstructionDataEncoder,
  getRegisterTagInstruction,
  getRegisterTagInstructionDataEncoder,
  getReleaseTagInstruction,
  getReleaseTagInstructionDataEncoder,
  getSetWalletInstruction,
  getSetWalletInstructionDataEncoder,
  LOCALNET_PROGRAM_ID,
  parseRegistryInstruction,
  parseRegistryInstructionData,
  parseTagRecord,
  REGISTER_TAG_DISCRIMINATOR,
  TAG_RECORD_OFFSETS,
  TAG_RECORD_SIZE,
  tagRecordBytes,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';
import { findTagRecordAddress } from '@/program/pda';

const programAddress = LOCALNET_PROGRAM_ID as Address;
/** Any 32 bytes are an address; the codecs never ask whether one is on the curve. */
const key = (): Address => getAddressDecoder().decode(randomBytes(32));
/** The builders want a signer for each signing account; an unsigned instruction needs only its address. */
const signer = (address: Address) => createNoopSigner(address);
const encodeRegisterTagData = (tag: string, wallet: Address) =>
  Buffer.from(getRegisterTagInstructionDataEncoder().encode({ tag, wallet }));
type Built = Instruction & InstructionWithAccounts<readonly AccountMeta[]> & InstructionWithData<ReadonlyUint8Array>;

describe('the generated builders', () => {
  const owner = key();
  const other = key();
  const [tagRecord] = findTagRecordAddress('alice', programAddress);
  const config = { programAddress };
  const BUILT: Record<string, () => Built> = {
    register_tag: () =>
      getRegisterTagInstruction(
        {
          tagRecord,
          owner: signer(owner),
          wallet: signer(other),
          feePayer: signer(other),
          tag: 'alice',
          walletArg: other,
        },
        config,
      ),
    set_wallet: () =>
      getSetWalletInstruction({ tagRecord, owner: signer(owner), wallet: signer(other), walletArg: other }, config),
    offer_transfer: () => getOfferTransferInstruction({ tagRecord, owner: signer(owner), newOwner: other }, config),
    cancel_transfer: () => getCancelTransferInstruction({ tagRecord, owner: signer(owner) }, config),
    accept_transfer: () => getAcceptTransferInstruction({ tagRecord, newOwner: signer(owner) }, config),
    release_tag: () => getReleaseTagInstruction({ tagRecord, owner: signer(owner), receiver: other }, config),
  };

  it.each(Object.entries(BUILT))(
    "%s: the IDL's accounts and flags, its discriminator, the record first",
    (name, build) => {
      const ix = idl.instructions.find((i) => i.name === name)!;
      const built = build();
      expect(built.programAddress).toBe(programAddress);
      expect(built.accounts.map((k) => ({ signer: isSignerRole(k.role), writable: isWritableRole(k.role) }))).toEqual(
        ix.accounts.map((a) => ({
          signer: 'signer' in a && a.signer === true,
          writable: 'writable' in a && a.writable === true,
        })),
      );
      expect(built.accounts[0]!.address).toBe(tagRecord);
      expect([...built.data.subarray(0, 8)]).toEqual(ix.discriminator);
      const raw = { programAddress, data: built.data, accounts: built.accounts.map((k) => k.address) };
      expect(parseRegistryInstruction(raw)).not.toBeNull();
    },
  );

  it("program/pda.ts's findTagRecordAddress is the generated findTagRecordPda, synchronously", async () => {
    for (const tag of ['alice', 'bob_smith', 'x'.repeat(32)]) {
      expect(await findTagRecordPda({ tag }, { programAddress })).toEqual(findTagRecordAddress(tag, programAddress));
    }
    expect(() => findTagRecordAddress('x'.repeat(33), programAddress)).toThrow(RangeError);
  });
});

describe("instruction data, with the program's strictness", () => {
  const wallet = key();
  const ALL = [
    ['register_tag', () => encodeRegisterTagData('bob_smith', wallet)],
    ['set_wallet', () => getSetWalletInstructionDataEncoder().encode({ wallet })],
    ['offer_transfer', () => getOfferTransferInstructionDataEncoder().encode({ newOwner: wallet })],
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
      data: expect.objectContaining({ tag: 'bob_smith', wallet }),
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
    expect(parseRegistryInstruction({ programAddress, data, accounts: keys })?.accounts).toEqual({
      tagRecord: expect.objectContaining({ address: keys[0] }),
      owner: expect.objectContaining({ address: keys[1] }),
      receiver: expect.objectContaining({ address: keys[2] }),
    });
    expect(parseRegistryInstruction({ programAddress, data, accounts: keys.slice(0, 2) })).toBeNull();
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
  const record = () => tagRecordBytes({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });

  it('round-trips every field, at TAG_RECORD_OFFSETS', () => {
    const data = record();
    expect(data.length).toBe(TAG_RECORD_SIZE);
    expect(parseTagRecord(data)).toEqual({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });
    const at = TAG_RECORD_OFFSETS;
    expect(getAddressDecoder().decode(data.subarray(at.owner, at.owner + 32))).toBe(owner);
    expect(getAddressDecoder().decode(data.subarray(at.wallet, at.wallet + 32))).toBe(wallet);
    expect(getAddressDecoder().decode(data.subarray(at.pendingOwner, at.pendingOwner + 32))).toBe(pendingOwner);
    expect(data[at.bump]).toBe(254);
    expect(new DataView(data.buffer).getBigInt64(at.registeredAt, true)).toBe(-5n);
    expect(new DataView(data.buffer).getUint32(at.tagLength, true)).toBe(5);
    expect(Buffer.from(data.subarray(at.tag, at.tag + 5)).toString()).toBe('alice');
    expect(data.subarray(at.tag + 5).every((b) => b === 0)).toBe(true);
  });

  it('reads an all-zero pending owner as null, and writes null as zero', () => {
    const data = tagRecordBytes({ owner, wallet, pendingOwner: null, bump: 1, registeredAt: 0n, tag: 'abc' });
    expect(data.subarray(72, 104).every((b) => b === 0)).toBe(true);
    expect(parseTagRecord(data)?.pendingOwner).toBeNull();
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
    expect(parseTagRecord(make())).toBeNull();
  });

  it('refuses to write a tag longer than a seed or a bump outside a u8', () => {
    expect(() =>
      tagRecordBytes({ owner, wallet, pendingOwner: null, bump: 1, registeredAt: 0n, tag: 'x'.repeat(33) }),
    ).toThrow(RangeError);
    expect(() =>
      tagRecordBytes({ owner, wallet, pendingOwner: null, bump: 256, registeredAt: 0n, tag: 'abc' }),
    ).toThrow(RangeError);
  });
});
