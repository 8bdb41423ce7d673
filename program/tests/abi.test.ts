// The ABI three ways: the C source, the IDL and lib/registry must agree.
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import idl from '@/program/idl/tag_registry.json';
import { LOCALNET_PROGRAM_ID, REGISTER_TAG_DISCRIMINATOR, TAG_RECORD_DISCRIMINATOR, TAG_RECORD_OFFSETS, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { acceptTransferInstruction, cancelTransferInstruction, decodeTagRecord, encodeTagRecord, findTagRecordAddress, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction } from '@/packages/tag-registry/src/web3js';

/** The program's ABI lives in program/src/abi.h; the instructions beside it. */
const SRC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const C_SOURCE = readdirSync(SRC_DIR).sort().map((f) => readFileSync(path.join(SRC_DIR, f), 'utf8')).join('\n');
const sha8 = (s: string) => [...createHash('sha256').update(s).digest().subarray(0, 8)];
const programId = new PublicKey(LOCALNET_PROGRAM_ID);

const NAMES = Object.keys(INSTRUCTION_DISCRIMINATORS) as RegistryInstructionName[];
const le = (bytes: number[]) => `0x${Buffer.from(bytes).reverse().toString('hex')}ull`;

describe('discriminators', () => {
  it('are the Anchor sha256 prefixes in TS, the IDL and the C source', () => {
    expect([...REGISTER_TAG_DISCRIMINATOR]).toEqual(sha8('global:register_tag'));
    expect([...TAG_RECORD_DISCRIMINATOR]).toEqual(sha8('account:TagRecord'));
    expect(idl.accounts[0].discriminator).toEqual(sha8('account:TagRecord'));
    expect(C_SOURCE).toContain(`#define TAG_RECORD_DISCRIMINATOR ${le(sha8('account:TagRecord'))}`);
  });

  it.each(NAMES)('%s: the same in TS, the IDL and the C source', (name) => {
    expect([...INSTRUCTION_DISCRIMINATORS[name]]).toEqual(sha8(`global:${name}`));
    expect(idl.instructions.find((ix) => ix.name === name)?.discriminator).toEqual(sha8(`global:${name}`));
    expect(C_SOURCE).toContain(`#define ${name.toUpperCase()}_DISCRIMINATOR ${le(sha8(`global:${name}`))}`);
  });

  it('the C source dispatches every instruction', () => {
    // register_tag from the entrypoint; the lifecycle calls from their table in lifecycle.h.
    const entry = readFileSync(path.join(SRC_DIR, 'tag_registry.c'), 'utf8');
    expect(entry).toContain('if (discriminator == REGISTER_TAG_DISCRIMINATOR) return register_tag(&in);');
    const lifecycle = readFileSync(path.join(SRC_DIR, 'lifecycle.h'), 'utf8');
    for (const name of NAMES.filter((n) => n !== 'register_tag')) {
      expect(lifecycle).toContain(`{${name.toUpperCase()}_DISCRIMINATOR, ${name}, `);
    }
  });
});

describe('errors', () => {
  it('the IDL lists the same codes, names and messages as lib/registry', () => {
    expect(idl.errors).toEqual(REGISTRY_ERRORS.map(({ code, name, msg }) => ({ code, name, msg })));
  });

  it('the C source numbers its errors from 6000 in the same order, with the same names and messages', () => {
    expect(C_SOURCE).toContain('ERR_TAG_TOO_SHORT = 6000,');
    const start = C_SOURCE.indexOf('ERROR_TEXTS[');
    const table = C_SOURCE.slice(start, C_SOURCE.indexOf('};', start));
    const rows = [...table.matchAll(/ERROR_TEXT\("(\w+)", "((?:[^"\\]|\\.)*)"\)/g)].map((m) => ({ name: m[1], msg: m[2].replace(/\\"/g, '"') }));
    expect(rows).toEqual(REGISTRY_ERRORS.map(({ name, msg }) => ({ name, msg })));
    REGISTRY_ERRORS.forEach((e, i) => expect(e.code).toBe(6000 + i));
  });

  it("the C source's name and message widths hold every row", () => {
    const width = (name: string) => Number(new RegExp(`#define ${name} (\\d+)`).exec(C_SOURCE)?.[1]);
    expect(Math.max(...REGISTRY_ERRORS.map((e) => e.name.length))).toBeLessThanOrEqual(width('ERROR_NAME_MAX'));
    expect(Math.max(...REGISTRY_ERRORS.map((e) => e.msg.length))).toBeLessThanOrEqual(width('ERROR_MESSAGE_MAX'));
  });

  it('maps codes to names and back', () => {
    expect(registryErrorName(6012)).toBe('AlreadyRegistered');
    expect(registryErrorCode('TagInvalidEdge')).toBe(6003);
    expect(registryErrorName(6021)).toBe('NewOwnerIsOwner');
    expect(registryErrorName(5999)).toBeNull();
    expect(registryErrorName(6000 + REGISTRY_ERRORS.length)).toBeNull();
  });
});

describe('IDL', () => {
  it('lists the six instructions in the order of lib/registry', () => {
    expect(idl.instructions.map((ix) => ix.name)).toEqual(NAMES);
  });

  it('describes register_tag as the program and lib/registry build it', () => {
    expect(idl.address).toBe(LOCALNET_PROGRAM_ID);
    const [ix] = idl.instructions;
    expect(ix.name).toBe('register_tag');
    expect(ix.args).toEqual([{ name: 'tag', type: 'string' }, { name: 'wallet', type: 'pubkey' }]);
    expect(ix.accounts.map((a) => a.name)).toEqual(['tag_record', 'owner', 'fee_payer', 'system_program']);
    const accounts = ix.accounts as ReadonlyArray<{ pda?: { seeds: unknown[] }; address?: string }>;
    expect(accounts[0].pda?.seeds).toEqual([{ kind: 'const', value: [...Buffer.from('tag')] }, { kind: 'arg', path: 'tag' }]);
    expect(accounts[3].address).toBe(SystemProgram.programId.toBase58());

    const owner = Keypair.generate().publicKey;
    const feePayer = Keypair.generate().publicKey;
    const built = registerTagInstruction({ programId, tag: 'alice', owner, wallet: owner, feePayer });
    expect(built.keys.map((k) => ({ signer: k.isSigner, writable: k.isWritable }))).toEqual(
      ix.accounts.map((a) => ({ signer: 'signer' in a && a.signer === true, writable: 'writable' in a && a.writable === true })),
    );
    expect(built.keys[0].pubkey.equals(findTagRecordAddress('alice', programId)[0])).toBe(true);
  });

  const owner = Keypair.generate().publicKey;
  const other = Keypair.generate().publicKey;
  const [tagRecord] = findTagRecordAddress('alice', programId);
  const BUILT = {
    set_wallet: () => setWalletInstruction({ programId, tagRecord, owner, wallet: other }),
    offer_transfer: () => offerTransferInstruction({ programId, tagRecord, owner, newOwner: other }),
    cancel_transfer: () => cancelTransferInstruction({ programId, tagRecord, owner }),
    accept_transfer: () => acceptTransferInstruction({ programId, tagRecord, newOwner: owner }),
    release_tag: () => releaseTagInstruction({ programId, tagRecord, owner, receiver: other }),
  };

  it.each(Object.entries(BUILT))('describes %s with the accounts, flags and args lib/registry builds', (name, build) => {
    const ix = idl.instructions.find((i) => i.name === name)!;
    const built = build();
    const camel = (s: string) => s.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
    expect(ix.accounts.map((a) => camel(a.name))).toEqual(INSTRUCTION_ACCOUNTS[name as RegistryInstructionName]);
    expect(built.keys.map((k) => ({ signer: k.isSigner, writable: k.isWritable }))).toEqual(
      ix.accounts.map((a) => ({ signer: 'signer' in a && a.signer === true, writable: 'writable' in a && a.writable === true })),
    );
    expect(built.keys[0].pubkey.equals(tagRecord)).toBe(true);
    const decoded = decodeInstruction(built.data);
    expect(decoded?.name).toBe(name);
    expect(Object.keys(decoded!).filter((k) => k !== 'name').map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))).toEqual(ix.args.map((a) => a.name));
    expect(ix.args.every((a) => a.type === 'pubkey')).toBe(true);
  });

  it('TagRecord fields add up to TAG_RECORD_SIZE (tag padded to one seed), at the offsets of abi.h', () => {
    const width = (type: unknown) => (typeof type === 'string' ? { pubkey: 32, u8: 1, u32: 4, i64: 8 }[type]! : 32);
    const fields = idl.types[0].type.fields;
    expect(fields.map((f) => f.name)).toEqual(['owner', 'wallet', 'pending_owner', 'bump', 'registered_at', 'tag_len', 'tag']);
    expect(fields.at(-1)?.type).toEqual({ array: ['u8', 32] });
    expect(8 + fields.reduce((sum, f) => sum + width(f.type), 0)).toBe(TAG_RECORD_SIZE);
    expect(TAG_RECORD_SIZE).toBe(149);
    const offsets = { REC_OWNER: 'owner', REC_WALLET: 'wallet', REC_PENDING_OWNER: 'pendingOwner', REC_BUMP: 'bump', REC_REGISTERED_AT: 'registeredAt', REC_TAG_LEN: 'tagLength', REC_TAG: 'tag' } as const;
    for (const [define, field] of Object.entries(offsets)) {
      expect(C_SOURCE).toMatch(new RegExp(`#define ${define} ${TAG_RECORD_OFFSETS[field]}\\b`));
    }
  });
});

describe('register_tag data codec', () => {
  const wallet = Keypair.generate().publicKey;

  it('round-trips', () => {
    const data = encodeRegisterTagData('bob_smith', wallet);
    expect(data.length).toBe(8 + 4 + 9 + 32);
    const decoded = decodeRegisterTagData(data);
    expect(decoded?.tag).toBe('bob_smith');
    expect(decoded?.wallet.equals(wallet)).toBe(true);
  });

  it.each([
    ['empty', () => new Uint8Array(0)],
    ['truncated', () => encodeRegisterTagData('alice', wallet).subarray(0, 40)],
    ['trailing byte', () => Buffer.concat([encodeRegisterTagData('alice', wallet), Buffer.from([1])])],
    ['wrong discriminator', () => { const d = encodeRegisterTagData('alice', wallet); d[7] ^= 0x80; return d; }],
    ['length past the end', () => { const d = encodeRegisterTagData('alice', wallet); d.writeUInt32LE(0xffffffff, 8); return d; }],
    ['invalid UTF-8', () => { const d = encodeRegisterTagData('abc', wallet); d[12] = 0xff; return d; }],
  ])('decodes %s to null', (_case, make) => {
    expect(decodeRegisterTagData(make())).toBeNull();
  });

  it('never throws on random bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(i % 90);
      if (i % 3 === 0 && bytes.length >= 8) bytes.set(REGISTER_TAG_DISCRIMINATOR);
      expect(() => decodeRegisterTagData(bytes)).not.toThrow();
    }
  });
});

describe('instruction codec', () => {
  const key = Keypair.generate().publicKey;
  const ALL: RegistryInstructionData[] = [
    { name: 'register_tag', tag: 'bob_smith', wallet: key },
    { name: 'set_wallet', wallet: key },
    { name: 'offer_transfer', newOwner: key },
    { name: 'cancel_transfer' },
    { name: 'accept_transfer' },
    { name: 'release_tag' },
  ];

  it.each(ALL.map((ix) => [ix.name, ix] as const))('%s round-trips through encodeInstructionData / decodeInstruction', (_name, ix) => {
    const data = encodeInstructionData(ix);
    expect([...data.subarray(0, 8)]).toEqual([...INSTRUCTION_DISCRIMINATORS[ix.name]]);
    expect(decodeInstruction(data)).toEqual(ix);
  });

  it.each(ALL.map((ix) => [ix.name, ix] as const))('%s decodes to null with a trailing byte or a byte short', (_name, ix) => {
    const data = encodeInstructionData(ix);
    expect(decodeInstruction(Buffer.concat([data, Buffer.from([0])]))).toBeNull();
    expect(decodeInstruction(data.subarray(0, data.length - 1))).toBeNull();
  });

  it('names the accounts in ABI order, and refuses too few', () => {
    const keys = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
    const decoded = decodeRegistryInstruction(encodeInstructionData({ name: 'release_tag' }), keys);
    expect(decoded).toEqual({ name: 'release_tag', accounts: { tagRecord: keys[0], owner: keys[1], receiver: keys[2] } });
    expect(decodeRegistryInstruction(encodeInstructionData({ name: 'release_tag' }), keys.slice(0, 2))).toBeNull();
    const accept = decodeRegistryInstruction(encodeInstructionData({ name: 'accept_transfer' }), [...keys, key]);
    expect(accept).toEqual({ name: 'accept_transfer', accounts: { tagRecord: keys[0], newOwner: keys[1] } });
  });

  it('never throws on random bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(i % 60);
      if (i % 2 === 0 && bytes.length >= 8) bytes.set(Object.values(INSTRUCTION_DISCRIMINATORS)[i % 6]);
      expect(() => decodeInstruction(bytes)).not.toThrow();
    }
  });
});

describe('TagRecord codec', () => {
  const owner = Keypair.generate().publicKey;
  const wallet = Keypair.generate().publicKey;
  const pendingOwner = Keypair.generate().publicKey;
  const record = () => encodeTagRecord({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });

  it('round-trips every field, at the documented offsets', () => {
    const data = record();
    expect(data.length).toBe(TAG_RECORD_SIZE);
    expect(decodeTagRecord(data)).toEqual({ owner, wallet, pendingOwner, bump: 254, registeredAt: -5n, tag: 'alice' });
    expect(Buffer.from(data.subarray(72, 104))).toEqual(pendingOwner.toBuffer());
    expect(data[104]).toBe(254);
    expect(new DataView(data.buffer).getUint32(113, true)).toBe(5);
    expect(Buffer.from(data.subarray(117, 122)).toString()).toBe('alice');
    expect(data.subarray(122).every((b) => b === 0)).toBe(true);
  });

  it('reads an all-zero pending owner as null, and writes null as zero', () => {
    const data = encodeTagRecord({ owner, wallet, pendingOwner: null, bump: 1, registeredAt: 0n, tag: 'abc' });
    expect(data.subarray(72, 104).every((b) => b === 0)).toBe(true);
    expect(decodeTagRecord(data)?.pendingOwner).toBeNull();
  });

  it.each([
    ['wrong size', () => record().subarray(0, TAG_RECORD_SIZE - 1)],
    ['the old 117-byte layout', () => record().subarray(0, 117)],
    ['wrong discriminator', () => { const d = record(); d[0] ^= 1; return d; }],
    ['tag longer than a seed', () => { const d = record(); new DataView(d.buffer).setUint32(113, 33, true); return d; }],
    ['invalid UTF-8', () => { const d = record(); d[117] = 0xff; return d; }],
  ])('decodes %s to null', (_case, make) => {
    expect(decodeTagRecord(make())).toBeNull();
  });
});
