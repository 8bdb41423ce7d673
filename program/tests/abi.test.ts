// The ABI three ways: the C source, the IDL and lib/registry must agree.
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import idl from '@/program/idl/tag_registry.json';
import {
  decodeRegisterTagData,
  decodeTagRecord,
  encodeRegisterTagData,
  findTagRecordAddress,
  LOCALNET_PROGRAM_ID,
  REGISTER_TAG_DISCRIMINATOR,
  registerTagInstruction,
  REGISTRY_ERRORS,
  registryErrorCode,
  registryErrorName,
  TAG_RECORD_DISCRIMINATOR,
  TAG_RECORD_SIZE,
} from '@/lib/registry';

const C_SOURCE = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'tag_registry.c'), 'utf8');
const sha8 = (s: string) => [...createHash('sha256').update(s).digest().subarray(0, 8)];
const programId = new PublicKey(LOCALNET_PROGRAM_ID);

describe('discriminators', () => {
  it('are the Anchor sha256 prefixes in TS, the IDL and the C source', () => {
    expect([...REGISTER_TAG_DISCRIMINATOR]).toEqual(sha8('global:register_tag'));
    expect([...TAG_RECORD_DISCRIMINATOR]).toEqual(sha8('account:TagRecord'));
    expect(idl.instructions[0].discriminator).toEqual(sha8('global:register_tag'));
    expect(idl.accounts[0].discriminator).toEqual(sha8('account:TagRecord'));
    const le = (bytes: number[]) => `0x${Buffer.from(bytes).reverse().toString('hex')}ull`;
    expect(C_SOURCE).toContain(`#define REGISTER_TAG_DISCRIMINATOR ${le(sha8('global:register_tag'))}`);
    expect(C_SOURCE).toContain(`#define TAG_RECORD_DISCRIMINATOR ${le(sha8('account:TagRecord'))}`);
  });
});

describe('errors', () => {
  it('the IDL lists the same codes, names and messages as lib/registry', () => {
    expect(idl.errors).toEqual(REGISTRY_ERRORS.map(({ code, name, msg }) => ({ code, name, msg })));
  });

  it('the C source numbers its errors from 6000 in the same order', () => {
    expect(C_SOURCE).toContain('ERR_TAG_TOO_SHORT = 6000,');
    const table = C_SOURCE.slice(C_SOURCE.indexOf('ERROR_NAMES['), C_SOURCE.indexOf('};', C_SOURCE.indexOf('ERROR_NAMES[')));
    const names = [...table.matchAll(/"(\w+)"/g)].map((m) => m[1]);
    expect(names).toEqual(REGISTRY_ERRORS.map((e) => e.name));
    REGISTRY_ERRORS.forEach((e, i) => expect(e.code).toBe(6000 + i));
  });

  it('maps codes to names and back', () => {
    expect(registryErrorName(6012)).toBe('AlreadyRegistered');
    expect(registryErrorCode('TagInvalidEdge')).toBe(6003);
    expect(registryErrorName(5999)).toBeNull();
    expect(registryErrorName(6013)).toBeNull();
  });
});

describe('IDL', () => {
  it('describes register_tag as the program and lib/registry build it', () => {
    expect(idl.address).toBe(LOCALNET_PROGRAM_ID);
    const [ix] = idl.instructions;
    expect(ix.name).toBe('register_tag');
    expect(ix.args).toEqual([{ name: 'tag', type: 'string' }, { name: 'wallet', type: 'pubkey' }]);
    expect(ix.accounts.map((a) => a.name)).toEqual(['tag_record', 'owner', 'fee_payer', 'system_program']);
    expect(ix.accounts[0].pda?.seeds).toEqual([{ kind: 'const', value: [...Buffer.from('tag')] }, { kind: 'arg', path: 'tag' }]);
    expect(ix.accounts[3].address).toBe(SystemProgram.programId.toBase58());

    const owner = Keypair.generate().publicKey;
    const feePayer = Keypair.generate().publicKey;
    const built = registerTagInstruction({ programId, tag: 'alice', owner, wallet: owner, feePayer });
    expect(built.keys.map((k) => ({ signer: k.isSigner, writable: k.isWritable }))).toEqual(
      ix.accounts.map((a) => ({ signer: 'signer' in a && a.signer === true, writable: 'writable' in a && a.writable === true })),
    );
    expect(built.keys[0].pubkey.equals(findTagRecordAddress('alice', programId)[0])).toBe(true);
  });

  it('TagRecord fields add up to TAG_RECORD_SIZE (tag padded to one seed)', () => {
    const width: Record<string, number> = { pubkey: 32, u8: 1, i64: 8, string: 4 + 32 };
    const fields = idl.types[0].type.fields;
    expect(8 + fields.reduce((sum, f) => sum + width[f.type], 0)).toBe(TAG_RECORD_SIZE);
    expect(TAG_RECORD_SIZE).toBe(117);
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

describe('TagRecord codec', () => {
  function record(tagLength = 5): Uint8Array {
    const data = new Uint8Array(TAG_RECORD_SIZE);
    data.set(TAG_RECORD_DISCRIMINATOR);
    data[72] = 254;
    new DataView(data.buffer).setBigInt64(73, -5n, true);
    new DataView(data.buffer).setUint32(81, tagLength, true);
    data.set(Buffer.from('alice'), 85);
    return data;
  }

  it('decodes every field', () => {
    expect(decodeTagRecord(record())).toMatchObject({ bump: 254, registeredAt: -5n, tag: 'alice' });
  });

  it.each([
    ['wrong size', () => record().subarray(0, 116)],
    ['wrong discriminator', () => { const d = record(); d[0] ^= 1; return d; }],
    ['tag longer than a seed', () => record(33)],
  ])('decodes %s to null', (_case, make) => {
    expect(decodeTagRecord(make())).toBeNull();
  });
});
